import { readFile, writeFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { addTestJs, FAILING_CHECK_CONFIG, MATH_JS } from '../../../test/support/failing-check.js';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { loadConfig } from '../../core/config/load.js';
import { runGate } from '../../core/run/run-gate.js';
import { validators } from '../../validators/index.js';
import { HOOK_AGENTS, type HookAgentName } from './index.js';
import { runStopHook } from './stop.js';

/**
 * What the stop hook's reason tells an agent in a fresh context, with the real validators: the failing check by
 * name, its place and failing line, how to see the rest; and, when it blocks for another cause, that cause.
 */
const CONFIG = FAILING_CHECK_CONFIG;
const TEST_JS = addTestJs();

let repo: TempRepo;
beforeEach(async () => {
  repo = await createTempRepo({
    files: { 'tollgate.config.yaml': CONFIG, 'test.js': TEST_JS, 'math.js': MATH_JS },
  });
});
afterEach(async () => {
  await repo.cleanup();
});

async function run(options: { base?: string; env?: NodeJS.ProcessEnv } = {}) {
  const env = { ...repo.env, ...options.env };
  const loaded = await loadConfig({ repoRoot: repo.root, cwd: repo.root, env, tools: validators });
  return runGate({
    repoRoot: repo.root,
    config: loaded.config,
    configHash: loaded.hash,
    tools: validators,
    command: 'tollgate run',
    version: 'test',
    env,
    ...(options.base ? { base: options.base } : {}),
  });
}

async function stopReason(agent: HookAgentName = 'claude', env: NodeJS.ProcessEnv = {}) {
  const payload = (await readFile(new URL(`../../../test/fixtures/hooks/${agent}/stop.json`, import.meta.url)))
    .toString('utf8')
    .replaceAll('__REPO__', repo.root);
  const answer = await runStopHook({
    stdin: Readable.from([Buffer.from(payload)]),
    env: { ...repo.env, ...env },
    cwd: repo.root,
    registry: validators,
    agent,
    warn: () => {},
  });
  expect(answer.decision).toBe('block');
  const reply = JSON.parse(answer.stdout) as { reason?: string; followup_message?: string };
  return reply.reason ?? reply.followup_message ?? '';
}

describe('the stop hook names what to fix', () => {
  test.each(HOOK_AGENTS)('%s: the failing check, its config line and its failing line', async (agent) => {
    await repo.write('math.js', 'exports.add = (a, b) => a - b;\n');
    const report = await run();
    expect(report.verdict).toBe('failed');
    const reason = await stopReason(agent);
    expect(reason).toContain(`validation failed on the current changes (run ${report.runId})`);
    expect(reason).toContain(
      '1. check "unit tests" failed (exit 1) at tollgate.config.yaml:2: not ok 301 - add is broken: expected 3, got -1',
    );
    expect(reason).toContain(`\`tollgate log ${report.runId}\``);
    expect(reason).not.toContain('ok 1 - adds 1 and 0\n');
  });

  test('a later pass of another change set (--base HEAD) does not read as "0 findings"', async () => {
    await repo.git('checkout', '-q', '-b', 'feature');
    await repo.write('math.js', 'exports.add = (a, b) => a - b;\n');
    await repo.commit('the bug, committed on a branch');
    const failed = await run(); // against main, where the branch started
    expect(failed.verdict).toBe('failed');
    const passed = await run({ base: 'HEAD' }); // nothing changed against HEAD
    expect(passed.verdict).toBe('passed');
    const reason = await stopReason('claude', {});
    expect(reason).not.toMatch(/0 unresolved/);
    expect(reason).toContain('not ok 301 - add is broken');
    expect(reason).toContain(`The latest run (${passed.runId}, passed) examined another change set`);
  });

  test('a state file signed with another key: says its runs do not count, not "never validated"', async () => {
    await repo.write('math.js', 'exports.add = (a, b) => a - b;\n');
    expect((await run()).verdict).toBe('failed');
    // What an MCP server that signs with another key leaves: a well-formed file whose signature this hook refuses.
    const statePath = `${repo.root}/.tollgate/state.json`;
    const state = JSON.parse(await readFile(statePath, 'utf8')) as { mac: string };
    const otherMac = `${state.mac.startsWith('0') ? '1' : '0'}${state.mac.slice(1)}`;
    await writeFile(statePath, JSON.stringify({ ...state, mac: otherMac }));
    const reason = await stopReason('codex');
    expect(reason).toMatch(
      /^tollgate: no recorded validation counts: \.tollgate\/state\.json is not signed with this stop hook's state key/,
    );
    expect(reason).toContain('XDG_STATE_HOME');
    expect(reason).not.toContain('have not been validated');
  });

  test('a change of environment only: says the config changed, not the files', async () => {
    await repo.write('math.js', 'exports.add = (a, b) => a + b + 0;\n');
    expect((await run()).verdict).toBe('passed');
    const reason = await stopReason('claude', { TOLLGATE_USE_ADVISORIES: '1' });
    expect(reason).toMatch(/^tollgate: the config \(or a TOLLGATE_\* environment override\) changed/);
    expect(reason).not.toContain('files changed');
  });
});
