import { existsSync } from 'node:fs';
import { readFile, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { fakeRegistry } from '../../../test/fakes/fake-validators.js';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { registriesWith } from '../../../test/support/registries.js';
import { parseConfigText } from '../../core/config/load.js';
import type { AnyToolDefinition } from '../../core/pipeline/tool.js';
import { runParallelValidation } from '../../core/run/parallel-validation.js';
import { validators } from '../../validators/index.js';
import type { HookAgentName } from './index.js';
import { runStopHook } from './stop.js';

let repo: TempRepo;
beforeEach(async () => {
  repo = await createTempRepo({ files: { 'README.md': '# demo\n' } });
});
afterEach(async () => {
  await repo.cleanup();
});

const fixture = (path: string) => readFile(new URL(`../../../test/fixtures/hooks/${path}`, import.meta.url));

/** The recorded payload with its `cwd` (or Cursor's workspace root) pointed at the test repository. */
async function payload(path: string): Promise<Buffer> {
  const raw = await fixture(path);
  return Buffer.from(raw.toString('utf8').replaceAll('__REPO__', repo.root));
}

async function hook(
  stdin: Buffer | string,
  options: { agent?: HookAgentName; env?: NodeJS.ProcessEnv; registry?: readonly AnyToolDefinition[] } = {},
) {
  const warnings: string[] = [];
  const answer = await runStopHook({
    stdin: Readable.from([typeof stdin === 'string' ? Buffer.from(stdin) : stdin]),
    env: { ...repo.env, ...options.env },
    cwd: repo.root,
    registry: options.registry ?? fakeRegistry,
    warn: (line) => warnings.push(line),
    ...(options.agent ? { agent: options.agent } : {}),
  });
  return { ...answer, warnings };
}

async function validate() {
  const loaded = parseConfigText({ text: '', file: null, env: {}, registries: registriesWith(fakeRegistry) });
  return runParallelValidation({
    repoRoot: repo.root,
    config: loaded.config,
    configHash: loaded.hash,
    registry: fakeRegistry,
    active: fakeRegistry,
    input: {},
    sessionId: 'validator',
    version: 'test',
  });
}

describe('tollgate hook stop: golden payloads', () => {
  test.each([
    ['claude', 'claude/stop.json'],
    ['codex', 'codex/stop.json'],
    ['copilot', 'copilot/stop.json'],
    ['copilot', 'copilot/stop-pascal.json'],
    ['cursor', 'cursor/stop.json'],
    ['gemini', 'gemini/stop.json'],
  ] as const)('%s (%s): blocks an unvalidated change, then allows once it passed', async (agent, path) => {
    await repo.write('src/a.ts', 'fine\n');
    const blocked = await hook(await payload(path));
    // PascalCase `Stop` makes Copilot send Claude's snake_case shape: it is answered as Claude (installs name the
    // agent with --agent, so this is only a payload that comes without one).
    expect(blocked.agent).toBe(path.endsWith('pascal.json') ? 'claude' : agent);
    expect(blocked.stdout).toBe((await fixture(`${blocked.agent}/block.expected.json`)).toString());
    await validate();
    const allowed = await hook(await payload(path), { agent });
    expect(allowed.stdout).toBe((await fixture(`${agent}/allow.expected.json`)).toString());
  });

  test('a failed run: the reason names the finding, its place and where to see the run', async () => {
    await repo.write('src/a.ts', 'TODO\n');
    const { runId } = await validate();
    const answer = await hook(await payload('codex/stop.json'));
    expect(JSON.parse(answer.stdout)).toEqual({
      decision: 'block',
      reason: [
        `tollgate: validation failed on the current changes (run ${runId}).`,
        'To fix:',
        '1. TODO marker left in the change at src/a.ts:1 (id b1723bfe17d7860c)',
        `(\`tollgate log ${runId}\` shows the whole run.)`,
        'Fix them, then call the `parallel_validation` tool (tollgate MCP server; if it is deferred, find it with tool_search: namespace `mcp__tollgate`, tool `parallel_validation`) or run `tollgate run` again before finishing.',
      ].join('\n'),
    });
  });

  test('a change after a passing run blocks again', async () => {
    await repo.write('src/a.ts', 'fine\n');
    await validate();
    await repo.write('src/a.ts', 'changed\n');
    const answer = await hook(await payload('gemini/stop.json'));
    expect(JSON.parse(answer.stdout).reason).toBe(
      'tollgate: the files or commits changed since the last validation. Call the `parallel_validation` tool (tollgate MCP server; if you do not see it, search your tools for tollgate parallel_validation) or run `tollgate run` on the current changes, fix what it reports, then finish.',
    );
  });

  test('fast path: a stamp saved once the tree was found validated answers the next stops; any edit voids it', async () => {
    await repo.write('src/a.ts', 'fine\n');
    await validate();
    const past = new Date(Date.now() - 60_000);
    await utimes(join(repo.root, 'src/a.ts'), past, past); // older than the racy-clean window
    expect((await hook(await payload('claude/stop.json'))).stdout).toBe('{}\n');
    expect(existsSync(join(repo.root, '.tollgate/stop-cache.json'))).toBe(true);
    expect((await hook(await payload('claude/stop.json'))).stdout).toBe('{}\n');
    await repo.write('src/a.ts', 'fin2\n'); // same size
    expect((await hook(await payload('claude/stop.json'))).decision).toBe('block');
  });

  test('nothing changed: allows', async () => {
    expect((await hook(await payload('claude/stop.json'))).stdout).toBe('{}\n');
  });
});

describe('tollgate hook stop: loop guards', () => {
  test.each([
    ['claude', 'claude/stop-active.json', 5],
    ['codex', 'codex/stop-active.json', 5],
    ['copilot', 'copilot/stop-active.json', 5],
    ['gemini', 'gemini/stop-active.json', 5],
  ] as const)(
    '%s (%s): after %i blocks in a row our counter lets it stop, under its own cap',
    async (agent, path, limit) => {
      await repo.write('src/a.ts', 'fine\n');
      for (let block = 1; block <= limit; block++) {
        expect((await hook(await payload(path))).decision).toBe('block');
      }
      const released = await hook(await payload(path));
      expect(released.decision).toBe('allow');
      expect(released.warnings).toEqual([
        'tollgate: allowed the stop after 5 blocks in a row; validation has NOT passed on the current changes (run `tollgate run` to see why).',
      ]);
      const expected = agent === 'copilot' ? {} : { systemMessage: released.warnings[0] };
      expect(JSON.parse(released.stdout)).toEqual(expected);
      // The counter starts over: the next stop is gated again.
      expect((await hook(await payload(path))).decision).toBe('block');
    },
  );

  test('cursor: its loop_count counts too, under its loop_limit of 5', async () => {
    await repo.write('src/a.ts', 'fine\n');
    expect((await hook(await payload('cursor/stop-loop4.json'))).stdout).toBe('{}\n');
  });

  test('never blocks a reviewer tollgate spawned (TOLLGATE_ACTIVE=1)', async () => {
    await repo.write('src/a.ts', 'fine\n');
    const stdin = new PassThrough(); // never ends: the hook must not even wait for it
    const answer = await runStopHook({
      stdin,
      env: { ...repo.env, TOLLGATE_ACTIVE: '1' },
      cwd: repo.root,
      registry: fakeRegistry,
    });
    // Allowed, and said so: anyone can set the variable (stop-warnings.test.ts).
    expect(JSON.parse(answer.stdout)).toEqual({ systemMessage: expect.stringContaining('TOLLGATE_ACTIVE=1 is set') });
  });
});

describe('tollgate hook stop: fails open', () => {
  test.each([
    [
      '',
      'tollgate: hook stdin: expected a JSON object from the agent, got empty input (is this running as a stop hook?); allowing the stop (fail open)',
    ],
    [
      'not json',
      'tollgate: hook stdin: expected a JSON object from the agent, got text starting "not json"; allowing the stop (fail open)',
    ],
    ['[1]', 'tollgate: hook stdin: expected a JSON object from the agent, got an array; allowing the stop (fail open)'],
  ])('stdin %j', async (stdin, warning) => {
    const answer = await hook(stdin, { agent: 'cursor' });
    expect(answer.stdout).toBe('{}\n');
    expect(answer.warnings).toEqual([warning]);
  });

  test('a broken config allows, never silently: the user sees that the gate is off, and doctor reports it', async () => {
    await repo.write('src/a.ts', 'fine\n');
    await repo.write('tollgate.config.yaml', 'validation: [\n');
    const answer = await hook(await payload('claude/stop.json'));
    expect(answer.decision).toBe('allow');
    expect(JSON.parse(answer.stdout).systemMessage).toMatch(
      /^tollgate: the completion gate is OFF for this stop \(internal error: tollgate\.config\.yaml:\d+:\d+ .*\); the change was NOT validated\. Run `tollgate doctor`\.$/,
    );
    expect(answer.warnings[0]).toMatch(
      /^tollgate: stop hook: internal error: tollgate\.config\.yaml:\d+:\d+ .*; allowing the stop \(fail open\)$/,
    );
    const { readLastFailOpen } = await import('./fail-open.js');
    expect(readLastFailOpen(repo.root)).toMatchObject({ agent: 'claude', decision: 'allow' });
  });

  test.each([
    ['gemini', 'gemini/stop.json', 'systemMessage'],
    ['codex', 'codex/stop.json', 'systemMessage'],
  ] as const)('%s shows the fail-open warning to the user', async (agent, path, field) => {
    await repo.write('src/a.ts', 'fine\n');
    await repo.write('tollgate.config.yaml', 'validation: [\n');
    const answer = await hook(await payload(path), { agent });
    expect(JSON.parse(answer.stdout)[field]).toContain('the completion gate is OFF');
  });

  test('hooks.stop.onError: block refuses the stop when the hook fails after reading the config', async () => {
    await repo.write('src/a.ts', 'fine\n');
    await repo.write('tollgate.config.yaml', 'hooks:\n  stop:\n    onError: block\n');
    await repo.git('add', 'tollgate.config.yaml');
    await repo.git('commit', '--quiet', '-m', "config: the policy is the base commit's (docs/policy.md)");
    // State written by a newer tollgate: this one cannot read it, after the config was read.
    await repo.write('.tollgate/state.json', '{"version": 999}\n');
    const answer = await hook(await payload('claude/stop.json'));
    expect(answer.decision).toBe('block');
    expect(JSON.parse(answer.stdout).reason).toContain('hooks.stop.onError is "block"');
  });

  test.each(['aborted', 'error'])('cursor: a stop with status %j gets no follow-up', async (status) => {
    await repo.write('src/a.ts', 'fine\n');
    const raw = (await payload('cursor/stop.json'))
      .toString('utf8')
      .replace('"status":"completed"', `"status":"${status}"`);
    const answer = await hook(raw);
    expect(answer).toMatchObject({ agent: 'cursor', decision: 'allow', stdout: '{}\n' });
  });

  test('stdin that never ends: blocks after the stdin timeout, as validation pending (a slow agent is no error)', async () => {
    const stdin = new PassThrough();
    stdin.write('{"hook_event_name":"Stop"');
    const answer = await runStopHook({
      stdin,
      env: repo.env,
      cwd: repo.root,
      registry: fakeRegistry,
      stdinTimeoutMs: 50,
      warn: () => {},
    });
    expect(answer.decision).toBe('block');
    expect(JSON.parse(answer.stdout).reason).toMatch(
      /^tollgate: validation is still pending: the stop hook had hook stdin: expected a JSON object .*\. Call the `validation_status` tool/,
    );
  });

  test('no decision by the deadline blocks as validation pending, whatever hooks.stop.onError says', async () => {
    await repo.write('src/a.ts', 'fine\n');
    const warnings: string[] = [];
    const answer = await runStopHook({
      stdin: Readable.from([await payload('claude/stop.json')]),
      env: repo.env,
      cwd: repo.root,
      registry: fakeRegistry,
      deadlineMs: 0,
      warn: (line) => warnings.push(line),
    });
    expect(answer).toMatchObject({ decision: 'block', pending: true });
    expect(JSON.parse(answer.stdout).reason).toMatch(
      /^tollgate: validation is still pending: the stop hook had no decision within 0 s \(a loaded machine or a slow git\)/,
    );
    expect(warnings).toEqual(['tollgate: stop hook: no decision within 0 s; blocking the stop (validation pending)']);
  });

  test('outside a repository: allows, warning that the payload points away from the repository', async () => {
    const answer = await hook(JSON.stringify({ hook_event_name: 'Stop', session_id: 's', cwd: '/' }));
    expect(answer.decision).toBe('allow');
    expect(JSON.parse(answer.stdout).systemMessage).toContain("the payload's cwd (/) is outside this repository");
  });
});

describe('tollgate hook stop: hooks.stop.run', () => {
  /** checks and secrets as the only enabled validators, so that the hook's run of them is a complete one. */
  const config = (check: string, timeout = '60s') =>
    [
      'checks:',
      '  - name: no-todo',
      `    run: ${JSON.stringify(check)}`,
      'hooks:',
      `  stop: { run: true, timeout: ${timeout} }`,
      'validation:',
      '  advisories: { enabled: false }',
      '  static_analysis: { enabled: false }',
      '',
    ].join('\n');
  const realHook = async (env: NodeJS.ProcessEnv = {}) =>
    hook(await payload('claude/stop.json'), { registry: validators, env });

  test('a failing check blocks, naming it; once fixed the stop is allowed', async () => {
    await repo.write('tollgate.config.yaml', config('! grep -rq TODO src'));
    await repo.commit('config');
    await repo.write('src/a.ts', 'TODO\n');
    const blocked = await realHook();
    expect(blocked.decision).toBe('block');
    expect(JSON.parse(blocked.stdout).reason).toMatch(
      /^tollgate: the stop hook ran checks, secrets on the current changes: checks \(failed\) did not pass \(\d+ finding\(s\)\)\./,
    );
    await repo.write('src/a.ts', 'done\n');
    const allowed = await realHook();
    expect(allowed).toMatchObject({ decision: 'allow', stdout: '{}\n' });
  });

  test('a partial selection that passes still blocks, naming the validators left', async () => {
    await repo.write(
      'tollgate.config.yaml',
      config('true')
        .replace('  static_analysis: { enabled: false }\n', '')
        .replace('stop: { run: true,', 'stop: { run: true, validators: [checks, secrets],'),
    );
    await repo.commit('config');
    await repo.write('src/a.ts', 'fine\n');
    const answer = await realHook();
    expect(JSON.parse(answer.stdout).reason).toMatch(
      /^tollgate: the stop hook ran checks, secrets on the current changes and they passed, but static_analysis still need a run\./,
    );
  });

  test('a check that hangs past hooks.stop.timeout: the hook still answers (blocks) in time and kills it', async () => {
    const pidFile = join(repo.env.HOME!, 'check.pid');
    await repo.write('tollgate.config.yaml', config(`echo $$ > ${pidFile}; exec sleep 30`, '1s'));
    await repo.commit('config');
    await repo.write('src/a.ts', 'fine\n');
    const answer = await realHook();
    expect(answer.decision).toBe('block');
    // The check's process is gone by the time the hook answered: it did not wait for the 30 s sleep.
    expect(JSON.parse(answer.stdout).reason).toMatch(/checks \(timeout\)/);
    const pid = Number((await readFile(pidFile, 'utf8')).trim());
    expect(isAlive(pid)).toBe(false);
  });

  test('TOLLGATE_ACTIVE=1 never runs anything', async () => {
    const marker = join(repo.env.HOME!, 'ran');
    await repo.write('tollgate.config.yaml', config(`touch ${marker}; false`));
    await repo.commit('config');
    await repo.write('src/a.ts', 'fine\n');
    const answer = await realHook({ TOLLGATE_ACTIVE: '1' });
    expect(answer.decision).toBe('allow');
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(repo.root, '.tollgate/state.json'))).toBe(false);
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
