import { afterEach, beforeEach, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { runInProcess } from '../../../test/support/in-process-cli.js';
import { makeFinding } from '../../core/finding.js';
import { recordResult } from '../../core/state/results-store.js';
import { registerWaive } from './waive.js';

let repo: TempRepo;
const medium = makeFinding({
  validator: 'checks',
  severity: 'medium',
  title: 'lint warning',
  path: 'src/b.ts',
  line: 3,
});

beforeEach(async () => {
  repo = await createTempRepo();
  await recordResult(repo.root, {
    tool: 'checks',
    fingerprint: 'fp',
    configHash: 'c',
    status: 'failed',
    runId: 'r1',
    at: '2026-11-23T10:56:00.000Z',
    findings: [medium],
  });
});
afterEach(async () => {
  await repo.cleanup();
});

async function tollgate(...args: string[]): Promise<string> {
  return (await runInProcess(args, { register: [registerWaive], cwd: repo.root, env: repo.env })).output;
}

test('waives, lists and removes', async () => {
  expect(await tollgate('waive', medium.id, '--reason', 'generated file')).toBe(
    `waived ${medium.id} (medium checks: lint warning) by Tollgate Test (agent): generated file\n`,
  );
  expect(await tollgate('waive', '--list')).toMatch(
    new RegExp(
      `^${medium.id}  medium checks: lint warning\\n    by Tollgate Test \\(agent\\) at .+: generated file\\n$`,
    ),
  );
  expect(JSON.parse(await tollgate('waive', '--list', '--json'))).toMatchObject([{ findingId: medium.id }]);
  expect(await tollgate('waive', '--remove', medium.id)).toBe(
    `removed the waiver of ${medium.id}; the finding blocks again\n`,
  );
  expect(await tollgate('waive', '--list')).toBe('no waivers\n');
});

test('waivers.allow in the config decides what an agent may waive', async () => {
  await repo.write('tollgate.config.yaml', 'waivers:\n  allow: [low]\n');
  // The config is policy (docs/policy.md): the edit applies once in the base, here a commit on main.
  await repo.git('add', 'tollgate.config.yaml');
  await repo.git('commit', '--quiet', '-m', 'waivers.allow: [low]');
  await expect(tollgate('waive', medium.id, '--reason', 'fine')).rejects.toThrow(
    /lets an agent waive low, so fix it: only a person at their own terminal can accept this risk$/,
  );
});

test('waivers.allow edited by the change (not in the base) does not apply', async () => {
  await repo.write('tollgate.config.yaml', 'waivers:\n  allow: [low]\n');
  await repo.git('add', 'tollgate.config.yaml');
  await repo.git('commit', '--quiet', '-m', 'waivers.allow: [low]');
  await repo.write('tollgate.config.yaml', 'waivers:\n  allow: [low, medium, high, critical]\n');
  await expect(tollgate('waive', medium.id, '--reason', 'fine')).rejects.toThrow(/lets an agent waive low, so fix it/);
});

test('no message an agent reads names a way around the gate', async () => {
  await repo.write('tollgate.config.yaml', 'waivers:\n  allow: [low]\n');
  // The config is policy (docs/policy.md): the edit applies once in the base, here a commit on main.
  await repo.git('add', 'tollgate.config.yaml');
  await repo.git('commit', '--quiet', '-m', 'waivers.allow: [low]');
  const refusal = await tollgate('waive', medium.id, '--reason', 'fine').catch((error: Error) => error.message);
  expect(refusal).not.toMatch(/--human|tollgate waive/);
});

test.each([
  ['CLAUDECODE', '1'],
  ['GEMINI_CLI', '1'],
  ['TOLLGATE_ACTIVE', '1'],
  ['CODEX_SANDBOX_NETWORK_DISABLED', '1'],
])('--human is refused under an agent (%s=%s)', async (name, value) => {
  await expect(
    runInProcess(['waive', medium.id, '--reason', 'fine', '--human'], {
      register: [registerWaive],
      cwd: repo.root,
      env: { ...repo.env, [name]: value },
    }),
  ).rejects.toThrow(`--human: refused: this runs under a coding agent (${name} is set)`);
});

test('--human is refused when stdin is not a terminal', async () => {
  const env = { ...repo.env };
  for (const name of ['CLAUDECODE', 'GEMINI_CLI', 'TOLLGATE_ACTIVE', 'CODEX_SANDBOX', 'CODEX_SANDBOX_NETWORK_DISABLED'])
    delete env[name];
  await expect(
    runInProcess(['waive', medium.id, '--reason', 'fine', '--human'], {
      register: [registerWaive],
      cwd: repo.root,
      env,
    }),
  ).rejects.toThrow('--human: refused: standard input is not a terminal');
});

test('--expires: the waiver lists its end; an expired waiver is listed as such', async () => {
  const out = await tollgate('waive', medium.id, '--reason', 'flaky', '--expires', '7d');
  expect(out).toMatch(/ until \d{4}-\d\d-\d\dT/);
  await expect(tollgate('waive', medium.id, '--reason', 'flaky', '--expires', 'soon')).rejects.toThrow(
    '--expires: expected a duration like "7d" or "12h" (at most 366d), got "soon"',
  );
  const { isExpired } = await import('../../core/state/waivers.js');
  expect(isExpired({ expiresAt: '2000-01-01T00:00:00.000Z' })).toBe(true);
  expect(isExpired({})).toBe(false);
});

test.each([
  [
    'no --reason',
    ['waive', 'abcd1234'],
    '--reason: required and non-empty: say why finding "abcd1234" is acceptable, e.g. --reason "test fixture, not a real key"',
  ],
  [
    'an empty --reason',
    ['waive', 'abcd1234', '--reason', '  '],
    '--reason: required and non-empty: say why finding "abcd1234" is acceptable, e.g. --reason "test fixture, not a real key"',
  ],
  [
    'nothing to do',
    ['waive'],
    'tollgate waive: expected a finding id, --list or --remove ID (see tollgate waive --help)',
  ],
  [
    'an id and --list',
    ['waive', 'abcd1234', '--list'],
    'tollgate waive: give only one of a finding id, --list and --remove ID',
  ],
])('%s is a usage error', async (_case, args, message) => {
  await expect(tollgate(...args)).rejects.toMatchObject({ code: 'usage', message });
});

test('an id that is not in the last run is not_found', async () => {
  await expect(tollgate('waive', 'ffffffffffffffff', '--reason', 'x')).rejects.toMatchObject({
    code: 'not_found',
    message: 'no finding with id "ffffffffffffffff" in the last run (see tollgate log)',
  });
});
