import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { FileStats } from './file-stats.js';

let root = '';
afterEach(() => rm(root, { recursive: true, force: true }));

// -1: every slice counts as slow, so after the first slices the rest go through the thread pool.
test.each([
  ['on the main thread', undefined],
  ['through the thread pool once look-ups are slow', -1],
])('early look-ups answer for files, links and missing paths %s; others are looked up when asked', async (_, slow) => {
  root = await mkdtemp(join(tmpdir(), 'tollgate-file-stats-'));
  await writeFile(join(root, 'a.txt'), 'four');
  await symlink('a.txt', join(root, 'link'));
  await writeFile(join(root, 'late.txt'), 'later!');
  const stats = new FileStats(root, slow);
  await stats.ready(); // nothing asked yet
  // Enough paths for several slices, so that the pool takes over when look-ups count as slow.
  const many = Array.from({ length: 1000 }, (_, index) => `missing-${index}.txt`);
  stats.prefetch(['a.txt', 'link', 'gone.txt', 'a.txt', ...many]);
  await stats.ready();
  // Answered from the early look-up, even after the file changed.
  await unlink(join(root, 'a.txt'));
  expect(stats.of('a.txt')?.size).toBe(4);
  expect(stats.of('link')?.isSymbolicLink()).toBe(true);
  expect(stats.of('gone.txt')).toBeNull();
  expect(stats.of('missing-999.txt')).toBeNull();
  expect(stats.of('late.txt')?.size).toBe(6);
  expect(stats.of('never.txt')).toBeNull();
});

test('paths asked for in several batches are all answered before ready settles', async () => {
  root = await mkdtemp(join(tmpdir(), 'tollgate-file-stats-'));
  for (const slow of [undefined, -1]) {
    await writeFile(join(root, 'a.txt'), 'four');
    await writeFile(join(root, 'b.txt'), 'fives');
    const stats = new FileStats(root, slow);
    stats.prefetch(Array.from({ length: 600 }, (_, index) => `x-${index}`));
    stats.prefetch(['a.txt']);
    const ready = stats.ready();
    stats.prefetch(['b.txt']);
    await ready;
    await unlink(join(root, 'a.txt'));
    await unlink(join(root, 'b.txt'));
    expect(stats.of('a.txt')?.size).toBe(4);
    expect(stats.of('b.txt')?.size).toBe(5);
  }
});

test('early reads: a regular file within the cap is read once and handed over once; links, FIFOs, folders and files over the cap are not read', async () => {
  root = await mkdtemp(join(tmpdir(), 'tollgate-file-stats-'));
  await writeFile(join(root, 'a.txt'), 'four');
  await writeFile(join(root, 'big.txt'), 'x'.repeat(20));
  await symlink('a.txt', join(root, 'link'));
  execFileSync('mkfifo', [join(root, 'fifo')]);
  await mkdir(join(root, 'folder.txt'));
  const stats = new FileStats(root, undefined, { maxFileSize: 10 });
  // Every path asked for as a regular file: what is on disk decides what is read.
  stats.prefetch(['a.txt', 'big.txt', 'link', 'fifo', 'folder.txt', 'gone.txt'], true);
  await stats.ready();
  expect(stats.of('a.txt')?.size).toBe(4);
  expect(stats.takeContent('a.txt')?.toString()).toBe('four');
  expect(stats.takeContent('a.txt')).toBeUndefined();
  expect(stats.of('big.txt')?.size).toBe(20);
  expect(stats.takeContent('big.txt')).toBeUndefined();
  // A link's own stats, as lstat gives them, and nothing read through it.
  expect(stats.of('link')?.isSymbolicLink()).toBe(true);
  expect(stats.takeContent('link')).toBeUndefined();
  // Opened without blocking for a writer, and never read.
  expect(stats.of('fifo')?.isFIFO()).toBe(true);
  expect(stats.takeContent('fifo')).toBeUndefined();
  expect(stats.of('folder.txt')?.isDirectory()).toBe(true);
  expect(stats.takeContent('folder.txt')).toBeUndefined();
  expect(stats.of('gone.txt')).toBeNull();
});

test('early reads only where asked, and not without a cap', async () => {
  root = await mkdtemp(join(tmpdir(), 'tollgate-file-stats-'));
  await writeFile(join(root, 'a.txt'), 'four');
  await writeFile(join(root, 'b.txt'), 'fives');
  const reading = new FileStats(root, undefined, { maxFileSize: 10 });
  reading.prefetch(['a.txt']);
  reading.prefetch(['b.txt'], true);
  const plain = new FileStats(root);
  plain.prefetch(['a.txt'], true);
  await Promise.all([reading.ready(), plain.ready()]);
  expect(reading.takeContent('a.txt')).toBeUndefined();
  expect(reading.takeContent('b.txt')?.toString()).toBe('fives');
  expect(plain.takeContent('a.txt')).toBeUndefined();
  expect(plain.of('a.txt')?.size).toBe(4);
});
