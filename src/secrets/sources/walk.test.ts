import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { LIST_CONCURRENCY, listFilesUnder } from './walk.js';

const root = mkdtempSync(join(tmpdir(), 'tollgate-walk-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

test('a folder outside git is walked without any .git folder in it (a repository copy, nested clones)', async () => {
  const files = {
    'app.env': 'TOKEN=x\n',
    'src/main.ts': 'export {};\n',
    '.git/config': '[core]\n',
    '.git/objects/pack/pack-1.pack': 'compressed object bytes\n',
    'vendor/lib/.git/HEAD': 'ref: refs/heads/main\n',
    'vendor/lib/index.js': 'module.exports = 1;\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const listed = await listFilesUnder(null, [root]);
  expect(listed.map((file) => relative(root, file.absolute).split('\\').join('/')).sort()).toEqual([
    'app.env',
    'src/main.ts',
    'vendor/lib/index.js',
  ]);
});

test('a walk of many more files than the pool keeps at most the pool busy, in depth-first name order', async () => {
  const tree = join(root, 'many');
  const expected: string[] = [];
  for (const folder of ['a', 'b', 'b/c', 'd']) {
    mkdirSync(join(tree, folder), { recursive: true });
    for (let file = 0; file < 150; file++) {
      const name = `${folder}/f${String(file).padStart(3, '0')}.txt`;
      writeFileSync(join(tree, name), 'x = 1\n');
    }
  }
  // Depth-first in name order: b's own files and its folder c sort as names ('c' before 'f…').
  for (const folder of ['a', 'b/c', 'b', 'd'])
    for (let file = 0; file < 150; file++) expected.push(`${folder}/f${String(file).padStart(3, '0')}.txt`);
  const peaks: number[] = [];
  const listed = await listFilesUnder(null, [tree], { onPool: (pool) => peaks.push(pool.peakRunning) });
  expect(listed.map((file) => relative(tree, file.absolute).split('\\').join('/'))).toEqual(expected);
  expect(listed.every((file) => file.size === 6)).toBe(true);
  expect(peaks.length).toBeGreaterThan(0);
  for (const peak of peaks) expect(peak).toBeLessThanOrEqual(LIST_CONCURRENCY);
  expect(Math.max(...peaks)).toBeGreaterThan(1);
});

test('a named link to a folder lists the folder it leads to, inside git or outside it', async () => {
  const outside = join(root, 'linked');
  mkdirSync(join(outside, 'real/sub'), { recursive: true });
  writeFileSync(join(outside, 'real/sub/app.env'), 'TOKEN=x\n');
  symlinkSync(join(outside, 'real'), join(outside, 'link'));
  const walked = await listFilesUnder(null, [join(outside, 'link')]);
  expect(walked.map((file) => relative(outside, file.absolute).split('\\').join('/'))).toEqual(['link/sub/app.env']);

  const repo = join(root, 'repo-with-link');
  mkdirSync(join(repo, 'src'), { recursive: true });
  writeFileSync(join(repo, 'src/main.ts'), 'export {};\n');
  symlinkSync(join(repo, 'src'), join(repo, 'src-link'));
  spawnSync('git', ['init', '-q'], { cwd: repo, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: repo } });
  const listed = await listFilesUnder(repo, [join(repo, 'src-link')]);
  expect(listed.map((file) => relative(repo, file.absolute).split('\\').join('/'))).toEqual(['src/main.ts']);
});

// On Windows git's paths are joined as before and not kept (see `gitListEntries`).
test.skipIf(process.platform === 'win32')(
  "git's list keeps git's paths, and reports each file's size as it is listed",
  async () => {
    const repo = join(root, 'repo-git-paths');
    for (const path of ['a.txt', 'deep/er/b.txt', 'ü/c.txt']) {
      mkdirSync(join(repo, path, '..'), { recursive: true });
      writeFileSync(join(repo, path), 'text\n');
    }
    spawnSync('git', ['init', '-q'], { cwd: repo, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: repo } });
    const sizes: number[] = [];
    const listed = await listFilesUnder(repo, [repo], { onListed: (size) => sizes.push(size) });
    expect(sizes).toEqual([5, 5, 5]);
    for (const file of listed) {
      expect(file.absolute).toBe(join(repo, file.gitPath!));
      expect(file.gitPath).toBe(relative(repo, file.absolute));
    }
    expect(listed.map((file) => file.gitPath).sort()).toEqual(['a.txt', 'deep/er/b.txt', 'ü/c.txt']);
  },
);

test.skipIf(process.platform === 'win32')(
  "with sizes from git's index, tracked files are listed unchecked at the index's size; untracked and links are looked at",
  async () => {
    const repo = join(root, 'repo-index-sizes');
    mkdirSync(join(repo, 'src'), { recursive: true });
    writeFileSync(join(repo, 'src/tracked.ts'), 'export {};\n');
    symlinkSync('tracked.ts', join(repo, 'src/tracked-link.ts'));
    const git = (...args: string[]) =>
      spawnSync('git', args, { cwd: repo, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: repo } });
    git('init', '-q');
    git('add', '-A');
    writeFileSync(join(repo, 'src/tracked.ts'), 'export const grown = 1;\n');
    writeFileSync(join(repo, 'untracked.ts'), 'x\n');
    const sizes: number[] = [];
    const listed = await listFilesUnder(repo, [repo], { sizesFromIndex: true, onListed: (size) => sizes.push(size) });
    const seen = listed.map(({ absolute, size, unchecked }) => ({ path: relative(repo, absolute), size, unchecked }));
    expect(seen.sort((a, b) => (a.path < b.path ? -1 : 1))).toEqual([
      // A link is looked at as before: its target's size now.
      { path: 'src/tracked-link.ts', size: 24, unchecked: undefined },
      // The index's size, from before the edit: the scan reads what is on disk when it opens it.
      { path: 'src/tracked.ts', size: 11, unchecked: true },
      { path: 'untracked.ts', size: 2, unchecked: undefined },
    ]);
    expect(sizes.sort()).toEqual([11, 2]);
    // Without the option (the gate's explicit paths, which read through `DiskFile.read`) every file is looked at.
    const looked = await listFilesUnder(repo, [repo]);
    expect(looked.every((file) => file.unchecked === undefined)).toBe(true);
    expect(looked.find((file) => file.gitPath === 'src/tracked.ts')?.size).toBe(24);
  },
);
