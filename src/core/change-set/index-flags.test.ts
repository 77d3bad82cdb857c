import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { useIsolatedRepos } from '../../../test/support/isolated-repos.js';
import { indexMayHideEntries } from './index-flags.js';

/**
 * The index reader only ever says "nothing hidden" for an index it walked entirely: real indexes written by git, in
 * each on-disk version, with and without flagged entries.
 */
const { repoWith, onCleanup } = useIsolatedRepos();

const FILES = {
  'a.txt': 'a\n',
  'deep/er/path/with/a/long/name/that/pads/differently.txt': 'x\n',
  'src/b.ts': 'b\n',
  'src/c.ts': 'c\n',
  'zz.txt': 'z\n',
};

async function indexOf(repo: TempRepo): Promise<Buffer> {
  return readFile(join(repo.root, '.git', 'index'));
}

const mayHide = async (repo: TempRepo, format = 'sha1') =>
  indexMayHideEntries(await indexOf(repo), format, '.tollgate');

describe.each([2, 3, 4])('index version %i', (version) => {
  async function repoAtVersion(files: Record<string, string> = FILES): Promise<TempRepo> {
    const repo = await repoWith(files);
    await repo.git('update-index', '--index-version', String(version));
    if (version === 3) {
      // git writes version 2 unless an entry has extended flags: intent-to-add is one that hides nothing.
      await repo.write('later.txt', 'l\n');
      await repo.git('add', '--intent-to-add', 'later.txt');
    }
    return repo;
  }

  test('no flagged entry: nothing hidden', async () => {
    const repo = await repoAtVersion();
    expect((await indexOf(repo)).readUInt32BE(4)).toBe(version);
    expect(await mayHide(repo)).toBe(false);
  });

  test('an assume-unchanged entry, first or last', async () => {
    const repo = await repoAtVersion();
    await repo.git('update-index', '--assume-unchanged', 'zz.txt');
    expect(await mayHide(repo)).toBe(true);
    await repo.git('update-index', '--no-assume-unchanged', 'zz.txt');
    await repo.git('update-index', '--assume-unchanged', 'a.txt');
    expect(await mayHide(repo)).toBe(true);
  });

  test('a skip-worktree entry', async () => {
    const repo = await repoAtVersion();
    await repo.git('update-index', '--skip-worktree', 'src/c.ts');
    expect(await mayHide(repo)).toBe(true);
  });

  test('a tracked file under the state folder, even after a path it shares no prefix with', async () => {
    const repo = await repoAtVersion({
      ...FILES,
      '.tollgate.yaml': 'c\n',
      '.tollgate/creds.py': 'x\n',
      '.tollgatex': 'y\n',
    });
    expect(await mayHide(repo)).toBe(true);
    const other = await repoAtVersion({ ...FILES, '.tollgatex': 'y\n', '.tollgate.yaml': 'z\n' });
    expect(await mayHide(other)).toBe(false);
  });

  test('a path longer than the flags can count (4095 bytes and up) is read past', async () => {
    const repo = await repoAtVersion();
    const blob = (await repo.git('hash-object', '-w', 'a.txt')).trim();
    const long = `l/${'x'.repeat(5000)}`;
    await repo.git('update-index', '--add', '--cacheinfo', `100644,${blob},${long}`);
    await repo.git('update-index', '--add', '--cacheinfo', `100644,${blob},m.txt`);
    expect(await mayHide(repo)).toBe(false);
    await repo.git('update-index', '--assume-unchanged', 'm.txt');
    expect(await mayHide(repo)).toBe(true);
  });

  test('the wrong object format, a cut file or a foreign one: cannot tell, so look', async () => {
    const repo = await repoAtVersion();
    const bytes = await indexOf(repo);
    expect(indexMayHideEntries(bytes, 'sha256', '.tollgate')).toBe(true);
    expect(indexMayHideEntries(bytes, 'md5', '.tollgate')).toBe(true);
    expect(indexMayHideEntries(bytes.subarray(0, bytes.length - 40), 'sha1', '.tollgate')).toBe(true);
    expect(indexMayHideEntries(Buffer.from('not an index at all'), 'sha1', '.tollgate')).toBe(true);
  });
});

test('a split index (its entries live in a shared file): look', async () => {
  const repo = await repoWith(FILES);
  await repo.git('update-index', '--split-index');
  await repo.write('a.txt', 'changed\n');
  await repo.git('add', 'a.txt');
  expect(await mayHide(repo)).toBe(true);
});

test('a sha256 repository is read with its own hash size', async () => {
  const repo = await createTempRepo();
  onCleanup(repo.cleanup);
  await repo.remove('.git');
  await repo.git('init', '--quiet', '--object-format=sha256');
  for (const [path, content] of Object.entries(FILES)) await repo.write(path, content);
  await repo.git('add', '-A');
  expect(await mayHide(repo, 'sha256')).toBe(false);
  expect(await mayHide(repo, 'sha1')).toBe(true);
  await repo.git('update-index', '--skip-worktree', 'a.txt');
  expect(await mayHide(repo, 'sha256')).toBe(true);
});

test('an index with no entries', async () => {
  const repo = await repoWith({ 'a.txt': 'a\n' });
  await repo.git('rm', '--quiet', '--cached', 'a.txt');
  expect(await mayHide(repo)).toBe(false);
});
