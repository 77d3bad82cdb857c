import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseRawDiff, patchCountOf, splitDiffOutput } from './raw-diff.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const Z = '0'.repeat(40);

describe('parseRawDiff', () => {
  test('reads modified, added, deleted, renamed and type-changed records', () => {
    const raw = [
      `:100644 100644 ${A} ${B} M`,
      'src/a.ts',
      `:000000 100644 ${Z} ${B} A`,
      'new file.txt',
      `:100644 000000 ${A} ${Z} D`,
      'gone',
      `:100644 100755 ${A} ${B} R087`,
      'old name',
      'new\nname',
      `:100644 120000 ${A} ${B} T`,
      'link',
      '',
    ].join('\0');
    expect(parseRawDiff(raw)).toEqual([
      { srcMode: 0o100644, dstMode: 0o100644, srcId: A, dstId: B, status: 'M', srcPath: 'src/a.ts', path: 'src/a.ts' },
      { srcMode: 0, dstMode: 0o100644, srcId: Z, dstId: B, status: 'A', srcPath: 'new file.txt', path: 'new file.txt' },
      { srcMode: 0o100644, dstMode: 0, srcId: A, dstId: Z, status: 'D', srcPath: 'gone', path: 'gone' },
      { srcMode: 0o100644, dstMode: 0o100755, srcId: A, dstId: B, status: 'R', srcPath: 'old name', path: 'new\nname' },
      { srcMode: 0o100644, dstMode: 0o120000, srcId: A, dstId: B, status: 'T', srcPath: 'link', path: 'link' },
    ]);
  });

  test('rejects output that is not raw records', () => {
    expect(() => parseRawDiff('diff --git a/x b/x\0')).toThrow(
      'git diff --raw: unexpected record "diff --git a/x b/x"',
    );
  });

  test('round-trips any path git can store', () => {
    const path = fc.string({ minLength: 1, maxLength: 30, unit: 'grapheme' }).filter((p) => !p.includes('\0'));
    fc.assert(
      fc.property(fc.array(path, { minLength: 1, maxLength: 5 }), (paths) => {
        const raw = paths.map((p) => `:100644 100644 ${A} ${B} M\0${p}\0`).join('');
        expect(parseRawDiff(raw).map((entry) => entry.path)).toEqual(paths);
      }),
    );
  });
});

describe('splitDiffOutput', () => {
  test('splits at the separator and keeps byte offsets in the patch', () => {
    const output = Buffer.from(`:100644 100644 ${A} ${B} M\0ü.txt\0\0diff --git a/\u00fc.txt b/\u00fc.txt\n`);
    const { raw, patch } = splitDiffOutput(output);
    expect(parseRawDiff(raw).map((entry) => entry.path)).toEqual(['ü.txt']);
    expect(patch.length).toBe(Buffer.byteLength('diff --git a/ü.txt b/ü.txt\n'));
  });

  test('takes output without a patch as all raw', () => {
    expect(splitDiffOutput(Buffer.from(`:100644 100644 ${A} ${B} M\0a\0`)).patch).toBe('');
  });
});

describe('patchCountOf', () => {
  test.each([
    ['a modification', 0o100644, 0o100755, 1],
    ['an addition', 0, 0o100644, 1],
    ['a file that became a symlink', 0o100644, 0o120000, 2],
    ['a file that became a submodule', 0o100644, 0o160000, 2],
  ])('%s has %i patch section(s)', (_name, srcMode, dstMode, count) => {
    expect(patchCountOf({ srcMode, dstMode, srcId: A, dstId: B, status: 'T', srcPath: 'x', path: 'x' })).toBe(count);
  });
});
