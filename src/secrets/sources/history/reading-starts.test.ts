import { afterEach, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../../../../test/support/git-repo.js';
import { historyTargetBatches } from './history-source.js';
import { whenHistoryReadingStarts } from './reading-starts.js';

let repo: TempRepo | undefined;
afterEach(async () => {
  whenHistoryReadingStarts(undefined);
  await repo?.cleanup();
  repo = undefined;
});

/** Targets handed on so far, over every history read. */
let seen = 0;

async function read(range: string): Promise<void> {
  for await (const batch of historyTargetBatches({ repoRoot: repo!.root, env: repo!.env, range })) seen += batch.length;
}

test("what bin/tollgate.cjs set runs once, as the history's reading begins, and not for a later history", async () => {
  repo = await createTempRepo({ files: { 'a.txt': 'one\n' } });
  await repo.write('a.txt', 'two\n');
  await repo.commit('second');
  const calls: number[] = [];
  seen = 0;
  whenHistoryReadingStarts(() => calls.push(seen));
  await read('HEAD~1..HEAD');
  const first = seen;
  expect(first).toBeGreaterThan(0);
  // Called once, before the first target was handed on.
  expect(calls).toEqual([0]);
  await read('HEAD~1..HEAD');
  expect(seen).toBe(2 * first);
  expect(calls).toEqual([0]);
});

test('a range the history refuses runs nothing', async () => {
  repo = await createTempRepo({ files: { 'a.txt': 'one\n' } });
  let calls = 0;
  whenHistoryReadingStarts(() => calls++);
  await expect(read('--all')).rejects.toThrow(/--history/);
  expect(calls).toBe(0);
});
