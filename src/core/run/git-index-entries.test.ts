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

/** A version-2 index of `entries` as git writes one: each entry padded with NULs to a multiple of eight bytes. */
function indexWith(entries: Array<{ stat: number[]; name: Uint8Array }>): Buffer {
  const header = Buffer.alloc(12);
  header.write('DIRC', 0, 'latin1');
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(entries.length, 8);
  const parts: Buffer[] = [header];
  for (const { stat, name } of entries) {
    const entry = Buffer.alloc((62 + name.length + 8) & ~7);
    for (const [index, field] of stat.entries()) entry.writeUInt32BE(field, index * 4);
    entry.writeUInt16BE(Math.min(name.length, 0xfff), 60);
    entry.set(name, 62);
    parts.push(entry);
  }
  parts.push(Buffer.alloc(20));
  return Buffer.concat(parts);
}

test('any stat data and name bytes: exactly the entries written, or undefined for a gitlink or a name not UTF-8', () => {
  const name = fc.oneof(
    fc.stringMatching(/^[a-z0-9/._-]{1,40}$/).map((text) => new Uint8Array(Buffer.from(text, 'latin1'))),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).map((text) => new Uint8Array(Buffer.from(text))),
    fc.uint8Array({ minLength: 1, maxLength: 40 }),
  );
  const entry = fc.record({
    stat: fc.array(fc.oneof(fc.nat(), fc.constantFrom(0, 0x7fffffff, 0x80000000, 0xffffffff, 0o100644, 0o160000)), {
      minLength: 10,
      maxLength: 10,
    }),
    name: name.filter((bytes) => !bytes.includes(0)),
  });
  fc.assert(
    fc.property(fc.array(entry, { maxLength: 12 }), (entries) => {
      const stat = (values: number[]) => values.map((value) => value >>> 0);
      const written = entries.map((item) => ({ stat: stat(item.stat), name: item.name }));
      const readable = written.every(
        (item) =>
          item.stat[6] !== 0o160000 &&
          Buffer.from(Buffer.from(item.name).toString('utf8'), 'utf8').equals(Buffer.from(item.name)),
      );
      const expected = readable
        ? written.map((item) => ({ path: Buffer.from(item.name).toString('utf8'), stat: item.stat }))
        : undefined;
      expect(readIndexEntries(indexWith(written))).toEqual(expected);
    }),
    { numRuns: 1000 },
  );
});
