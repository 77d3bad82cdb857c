import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { indexFileSizes } from './index-sizes.js';

const repo = mkdtempSync(join(tmpdir(), 'tollgate-index-sizes-'));
afterAll(() => rmSync(repo, { recursive: true, force: true }));

test("git's index gives each tracked regular file's size by the path git lists, any bytes in it", () => {
  const files = { 'a.txt': 'text\n', 'ü/ñ é.txt': 'longer text\n', 'deep/er/c.txt': '' };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(repo, path, '..'), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
  const git = (...args: string[]) =>
    spawnSync('git', args, { cwd: repo, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: repo } });
  git('init', '-q');
  git('add', '-A');
  writeFileSync(join(repo, 'a.txt'), 'grown since it was staged\n');
  const sizes = indexFileSizes(repo, 3);
  expect(sizes?.sizeOf('a.txt')).toBe(5);
  expect(sizes?.sizeOf('ü/ñ é.txt')).toBe(12);
  expect(sizes?.sizeOf('deep/er/c.txt')).toBe(0);
  expect(sizes?.sizeOf('untracked.txt')).toBeUndefined();
  expect(sizes?.sizeOf('deep/er')).toBeUndefined();
  // A few listed paths in a larger index: their `lstat`s cost less than walking it.
  expect(indexFileSizes(repo, 1)).toBeNull();
  expect(indexFileSizes(join(repo, 'deep'), 3)).toBeNull();
});
