import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parsePatch } from '../parse-patch.js';
import {
  type AddedPiece,
  type BinaryChange,
  PatchStream,
  type PatchStreamOptions,
  type RescanFiles,
  samePathHeader,
} from './patch-stream.js';

function read(
  chunks: readonly (string | Buffer)[],
  options?: PatchStreamOptions,
): { pieces: AddedPiece[]; binaries: BinaryChange[]; rescans: string[]; rescanned: Map<string, RescanFiles> } {
  const pieces: AddedPiece[] = [];
  const binaries: BinaryChange[] = [];
  const rescans: string[] = [];
  const rescanned = new Map<string, RescanFiles>();
  const stream = new PatchStream(
    {
      piece: (piece) => pieces.push(piece),
      binary: (change) => binaries.push(change),
      rescan: (commit, files) => {
        rescans.push(commit);
        rescanned.set(commit, files);
      },
    },
    options,
  );
  for (const chunk of chunks) stream.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  stream.end();
  return { pieces, binaries, rescans, rescanned };
}

const LOG = [
  '\0commit aaaa',
  '',
  'diff --git a/src/app.ts b/src/app.ts',
  'index 1111111..2222222 100644',
  '--- a/src/app.ts',
  '+++ b/src/app.ts',
  '@@ -3 +3,2 @@ function x() {',
  '-old line',
  '+new line',
  '+++ looks like a header but is content',
  '@@ -10,0 +12 @@',
  '+@@ -1 +1 @@ also content',
  'diff --git "a/tab\\there.txt" "b/tab\\there.txt"',
  'new file mode 100644',
  'index 0000000..3333333',
  '--- /dev/null',
  '+++ "b/tab\\there.txt"',
  '@@ -0,0 +1 @@',
  '+hello',
  '\\ No newline at end of file',
  '\0commit bbbb',
  '',
  'diff --git a/old.txt b/renamed.txt',
  'similarity index 90%',
  'rename from old.txt',
  'rename to renamed.txt',
  'index 4444444..5555555 100644',
  '--- a/old.txt',
  '+++ b/renamed.txt',
  '@@ -2 +2 @@',
  '-a',
  '+b',
  'diff --git a/logo.dat b/logo.dat',
  'index 6666666..7777777 100644',
  'Binary files a/logo.dat and b/logo.dat differ',
  'diff --git a/new.bin b/new.bin',
  'new file mode 100644',
  'index 0000000..8888888',
  'Binary files /dev/null and b/new.bin differ',
  '',
].join('\n');

describe('PatchStream', () => {
  test('added lines per commit and file, with their new line numbers; headers inside hunks are content', () => {
    const { pieces, binaries } = read([LOG]);
    expect(pieces.map(({ commit, path, text, lineMap, own }) => ({ commit, path, text, lineMap, own }))).toEqual([
      {
        commit: 'aaaa',
        path: 'src/app.ts',
        text: 'new line\n++ looks like a header but is content\n@@ -1 +1 @@ also content',
        lineMap: [3, 4, 12],
        own: { start: 3, end: 12 },
      },
      { commit: 'aaaa', path: 'tab\there.txt', text: 'hello', lineMap: [1], own: { start: 1, end: 1 } },
      { commit: 'bbbb', path: 'renamed.txt', text: 'b', lineMap: [2], own: { start: 2, end: 2 } },
    ]);
    expect(binaries).toEqual([
      { commit: 'bbbb', path: 'logo.dat', blob: '7777777', parentBlobs: ['6666666'] },
      { commit: 'bbbb', path: 'new.bin', blob: '8888888', parentBlobs: [] },
    ]);
  });

  test('a merge that wrote a binary file of its own, and text whose added lines hold a NUL, are read whole; a deleted binary file is not', () => {
    const log = [
      '\0commit mmmm',
      '',
      'diff --cc f.bin',
      'index 1111111,2222222..3333333',
      'Binary files differ',
      '\0commit tttt',
      '',
      'diff --git a/late.reg b/late.reg',
      'index 4444444..5555555 100644',
      '--- a/late.reg',
      '+++ b/late.reg',
      '@@ -3 +3 @@',
      '+t\0o\0k\0e\0n\0',
      'diff --git a/plain.txt b/plain.txt',
      'index 6666666..7777777 100644',
      '--- a/plain.txt',
      '+++ b/plain.txt',
      '@@ -1 +1 @@',
      '+plain',
      'diff --git a/gone.bin b/gone.bin',
      'deleted file mode 100644',
      'index 8888888..0000000',
      'Binary files a/gone.bin and /dev/null differ',
      '',
    ].join('\n');
    const { pieces, binaries } = read([log]);
    expect(pieces.map(({ path, text }) => `${path} ${text}`)).toEqual(['plain.txt plain']);
    expect(binaries).toEqual([
      { commit: 'mmmm', path: 'f.bin', blob: '3333333', parentBlobs: ['1111111', '2222222'] },
      { commit: 'tttt', path: 'late.reg', blob: '5555555', parentBlobs: ['4444444'] },
    ]);
  });

  test('a merge reports only the lines new to every parent (its own resolution), at their line in the result', () => {
    const merge = [
      '\0commit mmmm',
      '',
      'diff --cc config.env',
      'index 1111111,2222222..3333333',
      '--- a/config.env',
      '+++ b/config.env',
      '@@@ -1,2 -1,2 +1,3 @@@',
      '- from the first parent only',
      ' -from the second parent only',
      '+ kept from the second side',
      ' +kept from the first side',
      '++written by the merge',
      '',
    ].join('\n');
    const { pieces } = read([merge]);
    expect(pieces).toEqual([
      {
        commit: 'mmmm',
        path: 'config.env',
        text: 'written by the merge',
        lineMap: [3],
        own: { start: 3, end: 3 },
      },
    ]);
  });

  test('a commit whose --raw lines add and delete files leaves those to the rename pass and reads its modified ones; other commits and merges are read', () => {
    const raw = (status: string, path: string) =>
      `:100644 100644 ${'1'.repeat(40)} ${'2'.repeat(40)} ${status}\t${path}`;
    const file = (path: string, line: string, mode?: 'new' | 'deleted') => [
      `diff --git a/${path} b/${path}`,
      ...(mode ? [`${mode} file mode 100644`] : []),
      mode === 'new' ? '--- /dev/null' : `--- a/${path}`,
      mode === 'deleted' ? '+++ /dev/null' : `+++ b/${path}`,
      mode === 'deleted' ? '@@ -1 +0,0 @@' : '@@ -0,0 +1 @@',
      mode === 'deleted' ? `-${line}` : `+${line}`,
    ];
    const log = [
      '\0commit moves',
      '',
      raw('A', 'new.txt'),
      raw('D', 'old dir/old.txt'),
      raw('M', 'kept.txt'),
      '',
      ...file('kept.txt', 'edited in the moving commit'),
      ...file('new.txt', 'moved content', 'new'),
      ...file('old dir/old.txt', 'moved content', 'deleted'),
      '\0commit adds',
      '',
      raw('A', 'added.txt'),
      raw('M', 'kept.txt'),
      '',
      ...file('added.txt', 'added', 'new'),
      '\0commit merge',
      '',
      `::100644 100644 100644 ${'1'.repeat(40)} ${'2'.repeat(40)} ${'3'.repeat(40)} AD\tboth.txt`,
      '',
      'diff --cc both.txt',
      '--- a/both.txt',
      '+++ b/both.txt',
      '@@@ -1,0 -1,0 +1 @@@',
      '++merge line',
      '',
    ].join('\n');
    fc.assert(
      fc.property(fc.array(fc.nat(log.length), { maxLength: 8 }), (cuts) => {
        const bytes = Buffer.from(log);
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const chunks = points.map((point, i) => bytes.subarray(points[i - 1] ?? 0, point));
        chunks.push(bytes.subarray(points[points.length - 1] ?? 0));
        const { pieces, rescans, rescanned } = read(chunks);
        expect(rescans).toEqual(['moves']);
        expect(rescanned.get('moves')).toEqual({ read: new Set(['kept.txt']), left: ['new.txt', 'old dir/old.txt'] });
        expect(pieces.map(({ commit, path, text }) => `${commit} ${path} ${text}`)).toEqual([
          'moves kept.txt edited in the moving commit',
          'adds added.txt added',
          'merge both.txt merge line',
        ]);
      }),
    );
  });

  test('the rename pass passes over the files an earlier pass read, and reads the rest of those commits', () => {
    const log = [
      '\0commit moves',
      'diff --git a/kept.txt b/kept.txt',
      '--- a/kept.txt',
      '+++ b/kept.txt',
      '@@ -0,0 +1 @@',
      '+read by the first pass',
      'diff --git a/old.bin b/new.bin',
      'similarity index 90%',
      'rename from old.bin',
      'rename to new.bin',
      'index 1111111111111111111111111111111111111111..2222222222222222222222222222222222222222 100644',
      'Binary files a/old.bin and b/new.bin differ',
      'diff --git a/old.txt b/moved.txt',
      'similarity index 80%',
      'rename from old.txt',
      'rename to moved.txt',
      '--- a/old.txt',
      '+++ b/moved.txt',
      '@@ -2,0 +3 @@',
      '+edited while moved',
      '\0commit other',
      'diff --git a/kept.txt b/kept.txt',
      '--- a/kept.txt',
      '+++ b/kept.txt',
      '@@ -0,0 +1 @@',
      '+another commit: read',
      '',
    ].join('\n');
    const { pieces, binaries } = read([log], { alreadyRead: new Map([['moves', new Set(['kept.txt'])]]) });
    expect(pieces.map(({ commit, path, text }) => `${commit} ${path} ${text}`)).toEqual([
      'moves moved.txt edited while moved',
      'other kept.txt another commit: read',
    ]);
    expect(binaries.map(({ commit, path }) => `${commit} ${path}`)).toEqual(['moves new.bin']);
  });

  test('a left file whose path is not known for sure sends the whole commits to the rename pass', () => {
    const raw = (status: string, path: string) =>
      `:100644 100644 ${'1'.repeat(40)} ${'2'.repeat(40)} ${status}\t${path}`;
    const log = (header: string) =>
      [
        '\0commit moves',
        '',
        raw('A', 'x'),
        raw('D', 'y'),
        '',
        header,
        'new file mode 100644',
        'index 0000000000000000000000000000000000000000..e69de29bb2d1d6434b8b29ae775ad8c2e48c5391',
        'diff --git a/y b/y',
        'deleted file mode 100644',
        'index e69de29bb2d1d6434b8b29ae775ad8c2e48c5391..0000000000000000000000000000000000000000',
        '',
      ].join('\n');
    // Empty files have no ---/+++ lines: the header alone names them.
    expect(read([log('diff --git a/x b/x')]).rescanned.get('moves')).toEqual({ read: new Set(), left: ['x', 'y'] });
    expect(read([log('diff --git "a/t\\tx" "b/t\\tx"')]).rescanned.get('moves')?.left).toEqual(['t\tx', 'y']);
    // A name with ` b/` in it: both sides differ in length, so the line is read one way only.
    expect(read([log('diff --git a/p b/q b/p b/q')]).rescanned.get('moves')?.left).toEqual(['p b/q', 'y']);
    for (const header of [
      'diff --git a/x b/z',
      'diff --git "a/new\\nline" "b/new\\nline"',
      'diff --git a/\uFFFD b/\uFFFD',
    ])
      expect(read([log(header)]).rescanned.get('moves')?.left).toBeNull();
  });

  test('samePathHeader reads a header only when both sides name one path', () => {
    expect(samePathHeader('a/x b/x')).toBe('x');
    expect(samePathHeader('a/x y b/x y')).toBe('x y');
    expect(samePathHeader('"a/x\\"y" "b/x\\"y"')).toBe('x"y');
    expect(samePathHeader('a/x b/y')).toBeNull();
    expect(samePathHeader('a/x  b/x')).toBeNull();
    expect(samePathHeader('b/x a/x')).toBeNull();
  });

  test('gives what the whole-text parser gives, however the stream is cut', () => {
    // The whole-text parser takes an added `++ x` line for a header: left out here.
    const bytes = Buffer.from(LOG.replace('+++ looks like a header but is content\n', ''));
    const expected = parsePatch(bytes.toString())
      .filter((file) => !file.binary)
      .map((file) => ({ commit: file.commit, path: file.path, text: file.added.map((item) => item.text).join('\n') }));
    fc.assert(
      fc.property(fc.array(fc.nat(bytes.length), { maxLength: 12 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const chunks = points.map((point, i) => bytes.subarray(points[i - 1] ?? 0, point));
        chunks.push(bytes.subarray(points[points.length - 1] ?? 0));
        const { pieces } = read(chunks);
        expect(pieces.map(({ commit, path, text }) => ({ commit, path, text }))).toEqual(expected);
      }),
    );
  });

  test('multi-byte characters cut between chunks decode whole', () => {
    const patch = Buffer.from('\0commit c\ndiff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -0,0 +1 @@\n+snowman ☃ and é\n');
    const at = patch.indexOf(Buffer.from('☃')) + 1;
    const { pieces } = read([patch.subarray(0, at), patch.subarray(at)]);
    expect(pieces[0]!.text).toBe('snowman ☃ and é');
  });

  test('a large file leaves in pieces that overlap, own every line once, and map each line back', () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `line ${i + 1} ${'x'.repeat(i % 50)}`);
    const patch = `\0commit big\ndiff --git a/big.txt b/big.txt\nnew file mode 100644\n--- /dev/null\n+++ b/big.txt\n@@ -0,0 +1,5000 @@\n${lines.map((line) => `+${line}`).join('\n')}\n`;
    const { pieces } = read([patch], { pieceBytes: 10_000, overlapLines: 20 });
    expect(pieces.length).toBeGreaterThan(10);
    const owned: number[] = [];
    for (const piece of pieces) {
      const text = piece.text.split('\n');
      expect(text).toHaveLength(piece.lineMap.length);
      expect(text).toEqual(piece.lineMap.map((line) => lines[line - 1]));
      for (let line = piece.own.start; line <= piece.own.end; line++) owned.push(line);
      // Every owned line has its 20 neighbours in the piece (or the file ends first).
      expect(piece.lineMap[0]!).toBeLessThanOrEqual(Math.max(1, piece.own.start - 20));
      expect(piece.lineMap[piece.lineMap.length - 1]!).toBeGreaterThanOrEqual(Math.min(5000, piece.own.end + 20));
    }
    expect(owned).toEqual(Array.from({ length: 5000 }, (_, i) => i + 1));
  });

  test('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 200 }), { maxLength: 10 }), (chunks) => {
        read(chunks.map((chunk) => Buffer.from(chunk)));
      }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...LOG.split('\n'), '@@@ -1 -1 +1 @@@', '++x', ' +y', 'diff --cc f'), {
          maxLength: 60,
        }),
        (lines) => {
          read([lines.join('\n')]);
        },
      ),
    );
  });
});
