import { mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { removeDir, tempDir } from '../../../test/support/temp-home.js';
import { ensureRunDir, ensureTollgateDir, tollgatePaths } from './tollgate-dir.js';

let repo: string;
beforeEach(async () => {
  repo = await tempDir('tollgate-dir-');
});
afterEach(async () => {
  await removeDir(repo);
});

test('creates .tollgate (0700) with a .gitignore of "*" and names every path inside it', async () => {
  const paths = ensureTollgateDir(repo);
  expect((await stat(paths.root)).mode & 0o777).toBe(0o700);
  expect(await readFile(join(paths.root, '.gitignore'), 'utf8')).toBe('*\n');
  const inside = [
    paths.runsDir,
    paths.statePath,
    paths.waiversPath,
    paths.lockPath,
    paths.cacheDir,
    paths.runDir('r1'),
  ];
  for (const path of inside) expect(path.startsWith(`${repo}/.tollgate/`)).toBe(true);
});

test('is idempotent and keeps an existing .gitignore', async () => {
  ensureTollgateDir(repo);
  await writeFile(join(repo, '.tollgate', '.gitignore'), '*\n!keep\n');
  ensureTollgateDir(repo);
  expect(await readFile(join(repo, '.tollgate', '.gitignore'), 'utf8')).toBe('*\n!keep\n');
});

test('creates a run folder with mode 0700', async () => {
  const dir = ensureRunDir(repo, '20261123T105600Z-ab12cd');
  expect(dir).toBe(join(repo, '.tollgate', 'runs', '20261123T105600Z-ab12cd'));
  expect((await stat(dir)).mode & 0o777).toBe(0o700);
});

test.each(['../x', 'a/b', '..', '.hidden', ''])('refuses the run id %j', (runId) => {
  expect(() => tollgatePaths(repo).runDir(runId)).toThrow(/^run id .*: expected letters, digits/);
});

test('refuses a .tollgate that is a symlink', async () => {
  const elsewhere = join(repo, 'elsewhere');
  await mkdir(elsewhere);
  await symlink(elsewhere, join(repo, '.tollgate'));
  expect(() => ensureTollgateDir(repo)).toThrow(
    '.tollgate: expected a directory, found a symlink; remove it and rerun',
  );
});
