import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { useIsolatedRepos } from '../../../test/support/isolated-repos.js';
import { readIndexEntries } from './git-index-entries.js';

/**
 * The index reader the stamp's evidence compares tracked files with (stamp-evidence.ts): against git's own listing of
 * the same index (`git ls-files --debug`), in each on-disk version; undefined for what git would not decide from stat
 * data alone; never a throw on any bytes.
 */
const { repoWith } = useIsolatedRepos();

const FILES = {
  'a.txt': 'a\n',
  'deep/er/path/with/a/long/name/that/pads/differently.txt': 'x\n',
  'src/b.ts': 'b\n',
  'src/c.ts': 'c\n',
  'zz é.txt': 'z\n',
};

/** git's own view: path, then ctime, mtime, dev, ino, uid, gid, size as `ls-files --debug` prints them. */
function gitView(debug: string): Array<{ path: string; fields: number[] }> {
  const entries: Array<{ path: string; fields: number[] }> = [];
  for (const block of debug.split(/\n(?=\S)/)) {
    const [path, ...rest] = block.split('\n');
    const numbers = rest.join(' ').match(/\d+/g)!.map(Number);
    // ctime s:ns, mtime s:ns, dev, ino, uid, gid, size, flags
    entries.push({ path: path!, fields: numbers.slice(0, 9) });
  }
  return entries;
}

describe.each([2, 4])('index version %i', (version) => {
  test('reads every entry with git stat data', async () => {
    const repo = await repoWith(FILES);
    await repo.git('update-index', '--index-version', String(version));
    const entries = readIndexEntries(await readFile(join(repo.root, '.git', 'index')));
    const debug = await repo.git('-c', 'core.quotePath=false', 'ls-files', '--debug');
    const expected = gitView(debug.trimEnd());
    expect(entries?.map((entry) => entry.path)).toEqual(expected.map((entry) => entry.path));
    for (const [index, entry] of (entries ?? []).entries()) {
      const [cs, cn, ms, mn, dev, ino, uid, gid, size] = expected[index]!.fields;
      const s = entry.stat;
      expect([s[0], s[1], s[2], s[3], s[4], s[5], s[7], s[8], s[9]]).toEqual([
        cs,
        cn,
        ms,
        mn,
        dev,
        ino,
        uid,
        gid,
        size,
      ]);
      expect(s[6]).toBe(0o100644);
    }
  });
});

test('refuses entries git does not decide from stat data: intent-to-add, skip-worktree, assume-unchanged', async () => {
  for (const flag of [
    ['add', '--intent-to-add', 'later.txt'],
    ['update-index', '--skip-worktree', 'a.txt'],
    ['update-index', '--assume-unchanged', 'a.txt'],
  ]) {
    const repo = await repoWith(FILES);
    await repo.write('later.txt', 'l\n');
    await repo.git(...flag);
    expect(readIndexEntries(await readFile(join(repo.root, '.git', 'index')))).toBeUndefined();
  }
});

test('any bytes: entries or undefined, never a throw', () => {
  const header = Buffer.from('44495243000000020000000a', 'hex');
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 400 }), fc.boolean(), (bytes, withHeader) => {
      const input = withHeader ? Buffer.concat([header, Buffer.from(bytes)]) : Buffer.from(bytes);
      const entries = readIndexEntries(input);
      expect(entries === undefined || Array.isArray(entries)).toBe(true);
    }),
    { numRuns: 2000 },
  );
});
