import { afterEach, beforeEach, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { snapshotWorkTree } from './work-tree.js';

let repo: TempRepo;
beforeEach(async () => {
  repo = await createTempRepo({ files: { 'README.md': '# demo\n' } });
  await repo.write('src/app.ts', 'x\n');
});
afterEach(() => repo.cleanup());

test('is stable while nothing changes (5 tries), and ignores .tollgate/', async () => {
  const first = await snapshotWorkTree(repo.root);
  for (let attempt = 0; attempt < 5; attempt++) expect(await snapshotWorkTree(repo.root)).toBe(first);
  await repo.write('.tollgate/state.json', '{}');
  expect(await snapshotWorkTree(repo.root)).toBe(first);
});

test.each([
  ['a new untracked file', (r: TempRepo) => r.write('new.txt', 'n\n')],
  ['an edited untracked file', (r: TempRepo) => r.write('src/app.ts', 'y\n')],
  ['an edited tracked file', (r: TempRepo) => r.write('README.md', '# changed\n')],
  ['a deleted file', (r: TempRepo) => r.remove('README.md')],
  ['a commit', (r: TempRepo) => r.commit('by a reviewer').then(() => {})],
])('changes with %s', async (_what, change) => {
  const before = await snapshotWorkTree(repo.root);
  await change(repo);
  expect(await snapshotWorkTree(repo.root)).not.toBe(before);
});
