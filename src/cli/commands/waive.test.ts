import { Command } from 'commander';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
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
  const program = new Command('tollgate').exitOverride();
  let output = '';
  const write = (text: string) => {
    output += text;
  };
  registerWaive(program, () => ({ cwd: repo.root, env: repo.env, write }));
  await program.parseAsync(args, { from: 'user' });
  return output;
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
  await expect(tollgate('waive', medium.id, '--reason', 'fine')).rejects.toThrow(
    /lets an agent waive low: a person must run/,
  );
  await expect(tollgate('waive', medium.id, '--reason', 'fine', '--human')).resolves.toContain(
    'by Tollgate Test: fine',
  );
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
