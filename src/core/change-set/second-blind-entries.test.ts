import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { hideEditFromGit, recordOtherNanoseconds } from '../../../test/support/hidden-edit.js';
import { useIsolatedRepos } from '../../../test/support/isolated-repos.js';
import { forgetStatInput, secondBlindEntries } from './second-blind-entries.js';

/**
 * The entries git's stat check is blind to, against real git: an edit made where git compares only whole seconds is
 * one `git status` does not list, and one this finds; every other file, and git's own fresh index, give none.
 */
const { repoWith } = useIsolatedRepos();

const FILES = { 'app.txt': 'hello\n', 'src/b.ts': 'export const b = 1;\n', 'zz é.txt': 'z\n' };

/** The files put in the past and the index refreshed after them: nothing racy, as on a tree left alone a while. */
async function settledRepo(version = 2) {
  const repo = await repoWith(FILES);
  const past = new Date(Date.now() - 60_000);
  for (const path of Object.keys(FILES)) utimesSync(join(repo.root, path), past, past);
  await repo.git('update-index', '--refresh');
  await repo.git('update-index', '--index-version', String(version));
  return repo;
}

const indexOf = (root: string) => readFileSync(join(root, '.git', 'index'));

describe.each([2, 4])('index version %i', (version) => {
  test('an edit inside the second git recorded: git status lists nothing, the walk finds it', async () => {
    const repo = await settledRepo(version);
    expect(secondBlindEntries(indexOf(repo.root), 'sha1', repo.root)).toEqual([]);
    hideEditFromGit(repo.root, 'zz é.txt', 'Z\n');
    expect(await repo.git('status', '--porcelain')).toBe('');
    const blind = secondBlindEntries(indexOf(repo.root), 'sha1', repo.root);
    expect(blind?.map(({ path, mode }) => [path, mode])).toEqual([['zz é.txt', 0o100644]]);
    const oid = (await repo.git('rev-parse', ':zz é.txt')).trim();
    expect(blind?.[0]?.oid).toBe(oid);
  });
});

test('the entries put back with no stat data: git add then reads the file and stages the edit', async () => {
  const repo = await settledRepo();
  hideEditFromGit(repo.root, 'app.txt', 'HELLO\n');
  await repo.git('add', '--all');
  expect(await repo.git('diff', '--cached', '--name-only')).toBe(''); // git add alone is blind too
  const blind = secondBlindEntries(indexOf(repo.root), 'sha1', repo.root)!;
  execFileSync('git', ['update-index', '-z', '--index-info'], {
    cwd: repo.root,
    env: repo.env,
    input: forgetStatInput(blind),
  });
  await repo.git('add', '--all', '--', 'app.txt');
  expect(await repo.git('diff', '--cached', '--name-only')).toBe('app.txt\n');
  expect(await repo.git('show', ':app.txt')).toBe('HELLO\n');
});

test("with the index file's times: a left-alone index skips what git's racy-clean rule reads; a touched one does not", async () => {
  const repo = await settledRepo();
  hideEditFromGit(repo.root, 'app.txt', 'HELLO\n'); // mtime in the past, ctime now: looked at whatever the times
  // A file written now (its mtime and ctime in the same second), recorded in that second, then the index left alone.
  await repo.write('src/b.ts', 'export const b = 3;\n');
  recordOtherNanoseconds(repo.root, 'src/b.ts');
  const written = statSync(join(repo.root, 'src/b.ts')).mtimeMs;
  const paths = (times?: { mtimeMs: number; ctimeMs: number }) =>
    secondBlindEntries(indexOf(repo.root), 'sha1', repo.root, times)?.map(({ path }) => path);
  expect(paths()).toEqual(['app.txt', 'src/b.ts']);
  // Written five seconds later and left alone: a write in b.ts's second made it racy then, and git's next index write
  // would have cleared its size; so only the backdated file is looked at.
  expect(paths({ mtimeMs: written + 5000, ctimeMs: written + 5000 })).toEqual(['app.txt']);
  // The same index with its mtime set five seconds after its write: every entry is looked at.
  expect(paths({ mtimeMs: written + 5000, ctimeMs: written + 10_000 })).toEqual(['app.txt', 'src/b.ts']);
  // An index written in b.ts's second: git reads b.ts as racy; and the second just after it: looked at.
  expect(paths({ mtimeMs: written, ctimeMs: written })).toEqual(['app.txt']);
  expect(paths({ mtimeMs: written + 1000, ctimeMs: written + 1000 })).toEqual(['app.txt', 'src/b.ts']);
});

test('a file touched, chmodded or rewritten in another second is not blind: git sees those itself', async () => {
  const repo = await settledRepo();
  const now = new Date();
  utimesSync(join(repo.root, 'app.txt'), now, now);
  await repo.write('src/b.ts', 'export const b = 2;\n');
  expect(secondBlindEntries(indexOf(repo.root), 'sha1', repo.root)).toEqual([]);
});

test('any bytes: entries or undefined, never a throw', () => {
  const header = Buffer.from('44495243000000020000000a', 'hex');
  fc.assert(
    fc.property(
      fc.uint8Array({ maxLength: 400 }),
      fc.boolean(),
      fc.constantFrom('sha1', 'sha256', 'md5'),
      (bytes, withHeader, format) => {
        const input = withHeader ? Buffer.concat([header, Buffer.from(bytes)]) : Buffer.from(bytes);
        const blind = secondBlindEntries(input, format, '/nonexistent-tollgate-root');
        expect(blind === undefined || Array.isArray(blind)).toBe(true);
      },
    ),
    { numRuns: 2000 },
  );
});
