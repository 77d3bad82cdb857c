import { mkdtemp, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { FileStats } from './file-stats.js';

let root = '';
afterEach(() => rm(root, { recursive: true, force: true }));

test('early look-ups answer for files, links and missing paths; others are looked up when asked', async () => {
  root = await mkdtemp(join(tmpdir(), 'tollgate-file-stats-'));
  await writeFile(join(root, 'a.txt'), 'four');
  await symlink('a.txt', join(root, 'link'));
  await writeFile(join(root, 'late.txt'), 'later!');
  const stats = new FileStats(root);
  await stats.ready(); // nothing asked yet
  stats.prefetch(['a.txt', 'link', 'gone.txt', 'a.txt']);
  await stats.ready();
  // Answered from the early look-up, even after the file changed.
  await unlink(join(root, 'a.txt'));
  expect(stats.of('a.txt')?.size).toBe(4);
  expect(stats.of('link')?.isSymbolicLink()).toBe(true);
  expect(stats.of('gone.txt')).toBeNull();
  expect(stats.of('late.txt')?.size).toBe(6);
  expect(stats.of('never.txt')).toBeNull();
});
