import { describe, expect, test } from 'vitest';
import { agentByName } from '../../src/agents/index.js';
import type { AgentAdapter } from '../../src/agents/types.js';
import { fixtureDirOf } from '../fakes/fake-agents.js';

/**
 * Adding an agent CLI is its adapter, its registry line and its own fixture folder. The adapter type makes every
 * per-agent piece a required member (usage parsing included), so TypeScript names what is missing; what the tests
 * need is derived from the registry, and a missing fixture folder is named with the path to write.
 */
describe('adding an agent CLI', () => {
  const newcomer: AgentAdapter<'newcli'> = { ...agentByName('opencode'), name: 'newcli', verifiedVersions: ['0.1.0'] };

  test('its fixture folder is derived from the adapter, and a missing one names the folder to write', () => {
    expect(() => fixtureDirOf(newcomer)).toThrow(
      "test/fixtures/agents/newcli/0.1.0/ is missing: record newcli's outputs there (help.txt, pass, findings, …; see test/fixtures/agents/README.md)",
    );
    expect(fixtureDirOf(agentByName('claude'))).toBe('claude/2.1.330');
    expect(fixtureDirOf(agentByName('cursor'))).toBe('cursor/docs');
  });

  test("usage reporting is the adapter's own: every registered adapter answers for its output", () => {
    expect(newcomer.usageOf('')).toEqual({});
    expect(
      agentByName('codex').usageOf('{"type":"turn.completed","usage":{"input_tokens":5,"output_tokens":2}}'),
    ).toEqual({
      inputTokens: 5,
      outputTokens: 2,
      toolCalls: 0,
    });
  });
});
