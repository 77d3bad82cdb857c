import { expect, test } from 'vitest';
import { AGENT_ENVIRONMENT_MARKERS, agentMarkers } from './agent-environment.js';
import { agentAdapters } from './index.js';

test("the markers are tollgate's own and each adapter's", () => {
  expect([...AGENT_ENVIRONMENT_MARKERS].sort()).toEqual(
    ['CLAUDECODE', 'CODEX_SANDBOX', 'CODEX_SANDBOX_NETWORK_DISABLED', 'GEMINI_CLI', 'TOLLGATE_ACTIVE'].sort(),
  );
  for (const adapter of agentAdapters) {
    for (const marker of adapter.environmentMarkers ?? []) expect(AGENT_ENVIRONMENT_MARKERS).toContain(marker);
  }
});

test('a marker counts when set to anything but empty or "0"', () => {
  expect(agentMarkers({ CLAUDECODE: '1', GEMINI_CLI: '', CODEX_SANDBOX: '0', TOLLGATE_ACTIVE: 'yes' })).toEqual([
    'TOLLGATE_ACTIVE',
    'CLAUDECODE',
  ]);
  expect(agentMarkers({ PATH: '/bin' })).toEqual([]);
});
