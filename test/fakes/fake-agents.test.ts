import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type FakeAgents, helpFileOf, setupFakeAgents } from './fake-agents.js';

/** The probes the fake's shell script answers itself must answer and log exactly as fake-agent.mjs does. */
let fakes: FakeAgents;
let log: string;

beforeAll(async () => {
  fakes = await setupFakeAgents({
    codex: { helpFile: helpFileOf('codex'), version: '0.9.1', authArgs: ['login', 'status'], auth: { exit: 0 } },
    claude: {
      helpFile: helpFileOf('claude'),
      authArgs: ['auth', 'status'],
      auth: { exit: 1, stderr: 'Not logged in\n' },
    },
  });
  log = JSON.parse(readFileSync(fakes.env.TOLLGATE_FAKE_AGENTS!, 'utf8')).log;
});
afterAll(() => fakes.cleanup());

/**
 * One call of a fake, in the fakes' own folder (not $HOME: a worker runs other files first, isolate: false). A call
 * that did not run says why (spawn error, signal) in what the test compares, instead of an empty log and no status.
 */
function call(command: string[], env: NodeJS.ProcessEnv) {
  writeFileSync(log, '');
  const run = spawnSync(command[0]!, command.slice(1), { env, input: '', encoding: 'utf8', cwd: dirname(log) });
  const failed = run.error ? { error: `${(run.error as NodeJS.ErrnoException).code}: ${run.error.message}` } : {};
  const signal = run.signal ? { signal: run.signal } : {};
  return { stdout: run.stdout, stderr: run.stderr, status: run.status, ...failed, ...signal, log: fakes.calls() };
}

test.each([
  ['codex', '--help'],
  ['codex', 'exec', '--help'],
  ['codex', '--version'],
  ['codex', 'login', 'status'],
  ['claude', 'auth', 'status'],
  ['claude', '--version'],
])('%s %s: the shell answers as the Node fake does', (bin, ...args) => {
  const env = { ...fakes.env, TOLLGATE_ACTIVE: '1', GH_TOKEN: 'x' };
  const bins = join(fakes.env.PATH!.split(':')[0]!);
  const byShell = call([join(bins, bin), ...args], { ...env, FAKE_AGENT_NO_NODE: '1' });
  const byNode = call([process.execPath, resolve(import.meta.dirname, 'fake-agent.mjs'), bin, ...args], env);
  expect(byShell).toEqual(byNode);
  expect(byShell.log).toHaveLength(1);
  expect(byShell.log[0]!.call).not.toBe('review');
});

test('a review, or a value the script would have to escape, goes to the Node fake', () => {
  const bins = join(fakes.env.PATH!.split(':')[0]!);
  const env = { ...fakes.env, FAKE_AGENT_NO_NODE: '1' };
  expect(call([join(bins, 'codex'), 'exec', '-'], env).status).toBe(96);
  expect(call([join(bins, 'codex'), '--version'], { ...env, CLAUDECODE: 'a"b' }).status).toBe(96);
  expect(call([join(bins, 'codex'), '--version'], env).status).toBe(0);
});
