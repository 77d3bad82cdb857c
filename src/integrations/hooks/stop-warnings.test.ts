import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { fakeRegistry } from '../../../test/fakes/fake-validators.js';
import { createTempRepo, removeDir, type TempRepo, tempDir } from '../../../test/support/git-repo.js';
import type { HookAgentName } from './index.js';
import { runStopHook } from './stop.js';

/**
 * The stop hook says when something outside the config changes what it checks: TOLLGATE_ACTIVE=1, TOLLGATE_USE_<NAME>=0,
 * TOLLGATE_CONFIG, or a payload `cwd` outside the repository. In `systemMessage` for the agents that show one, and
 * always on stderr and in `.tollgate/hooks.log`.
 */
let repo: TempRepo;
beforeEach(async () => {
  repo = await createTempRepo({ files: { 'README.md': '# demo\n' } });
});
afterEach(() => repo.cleanup());

async function hook(options: { agent: HookAgentName; env?: NodeJS.ProcessEnv; payloadCwd?: string }) {
  const fixture = await readFile(new URL(`../../../test/fixtures/hooks/${options.agent}/stop.json`, import.meta.url));
  const stdin = fixture.toString('utf8').replaceAll('__REPO__', options.payloadCwd ?? repo.root);
  const warnings: string[] = [];
  const answer = await runStopHook({
    stdin: Readable.from([Buffer.from(stdin)]),
    env: { ...repo.env, ...options.env },
    cwd: repo.root,
    registry: fakeRegistry,
    warn: (line) => warnings.push(line),
    agent: options.agent,
  });
  return { ...answer, reply: JSON.parse(answer.stdout) as Record<string, unknown>, warnings };
}

const hooksLog = () => readFile(join(repo.root, '.tollgate', 'hooks.log'), 'utf8').catch(() => '');

describe('the stop hook warns when the environment narrows what it checks', () => {
  test('TOLLGATE_ACTIVE=1: allowed without a check, and said so', async () => {
    await repo.write('src/a.ts', 'unvalidated\n');
    const answer = await hook({ agent: 'claude', env: { TOLLGATE_ACTIVE: '1' } });
    expect(answer.decision).toBe('allow');
    expect(answer.reply.systemMessage).toBe(
      'tollgate: TOLLGATE_ACTIVE=1 is set, so this stop is not gated at all (the variable is meant only for the reviewers tollgate starts).',
    );
    expect(answer.warnings).toEqual([expect.stringContaining('TOLLGATE_ACTIVE=1 is set')]);
  });

  test('TOLLGATE_USE_<NAME>=0 and TOLLGATE_CONFIG: in systemMessage next to the block, on stderr and in hooks.log', async () => {
    await repo.write('src/a.ts', 'unvalidated\n');
    await repo.write('elsewhere.yaml', 'lint: {}\n');
    const answer = await hook({
      agent: 'claude',
      env: { TOLLGATE_USE_LINT: '0', TOLLGATE_CONFIG: 'elsewhere.yaml' },
    });
    expect(answer.decision).toBe('block');
    expect(answer.reply.systemMessage).toBe(
      "tollgate: TOLLGATE_USE_LINT=0 turns a validator off for this check; TOLLGATE_CONFIG=elsewhere.yaml is set: the config is read from there, not from the repository's tollgate.config.yaml.",
    );
    expect(answer.warnings).toHaveLength(2);
    const log = await hooksLog();
    expect(log).toContain('tollgate: stop hook: warning: TOLLGATE_USE_LINT=0 turns a validator off');
    expect(log).toContain('tollgate: stop hook: warning: TOLLGATE_CONFIG=elsewhere.yaml is set');
  });

  test('agents without systemMessage (Cursor, Copilot) get the warning on stderr and in hooks.log only', async () => {
    const cursor = await hook({ agent: 'cursor', env: { TOLLGATE_USE_LINT: 'false' } });
    expect(cursor.reply).toEqual({});
    expect(cursor.warnings).toEqual([
      'tollgate: stop hook: warning: TOLLGATE_USE_LINT=false turns a validator off for this check',
    ]);
    const copilot = await hook({ agent: 'copilot', env: { TOLLGATE_USE_LINT: '0' } });
    expect(copilot.reply).toEqual({});
    expect(await hooksLog()).toContain('TOLLGATE_USE_LINT=0');
  });

  test('no warning without any of them', async () => {
    const answer = await hook({ agent: 'claude', env: { TOLLGATE_USE_LINT: '1' } });
    expect(answer).toMatchObject({ decision: 'allow', reply: {}, warnings: [] });
  });
});

describe('a payload cwd outside the repository', () => {
  let outside: string;
  beforeEach(async () => {
    outside = await tempDir('tollgate-outside-');
  });
  afterEach(() => removeDir(outside));

  test('in no repository: the stop is allowed (nothing to check) and the warning names both directories', async () => {
    await repo.write('src/a.ts', 'unvalidated\n');
    const answer = await hook({ agent: 'claude', payloadCwd: outside });
    expect(answer.decision).toBe('allow');
    expect(answer.reply.systemMessage).toBe(
      `tollgate: the payload's cwd (${outside}) is outside this repository (${repo.root}) and in no repository: nothing was checked.`,
    );
    expect(answer.warnings).toEqual([expect.stringContaining("warning: the payload's cwd")]);
  });

  test('in another repository: that one is checked, and the warning says so', async () => {
    const other = await createTempRepo({ files: { 'x.txt': 'x\n' } });
    try {
      const answer = await hook({ agent: 'gemini', payloadCwd: other.root });
      expect(answer.reply.systemMessage).toBe(
        `tollgate: the payload's cwd (${other.root}) is outside this repository (${repo.root}): the hook checks ${other.root} instead.`,
      );
    } finally {
      await other.cleanup();
    }
  });

  test('a subdirectory of the repository is not outside', async () => {
    await repo.write('src/keep.txt', 'x\n');
    await repo.commit('src');
    const answer = await hook({ agent: 'claude', payloadCwd: join(repo.root, 'src') });
    expect(answer).toMatchObject({ decision: 'allow', reply: {}, warnings: [] });
  });
});
