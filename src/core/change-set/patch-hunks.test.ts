import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { mergeRanges, PatchStream, parsePatch } from './patch-hunks.js';

const modified = [
  'diff --git a/f b/f',
  'index de98044..3437a67 100644',
  '--- a/f',
  '+++ b/f',
  '@@ -2 +1,0 @@ a',
  '-b',
  '@@ -4,0 +4,2 @@ c',
  '+x',
  '+@@ -1 +1 @@ not a hunk header: a body line',
  '@@ -9,2 +10 @@',
  '-y',
  '-z',
  '+w',
  '',
].join('\n');
const binary = [
  'diff --git a/img.png b/img.png',
  'new file mode 100644',
  'index 0000000..a1b2c3d',
  'Binary files /dev/null and b/img.png differ',
  '',
].join('\n');
const modeOnly = ['diff --git a/run.sh b/run.sh', 'old mode 100644', 'new mode 100755', ''].join('\n');
const added = [
  'diff --git a/new.txt b/new.txt',
  'new file mode 100644',
  'index 0000000..3e75765',
  '--- /dev/null',
  '+++ b/new.txt',
  '@@ -0,0 +1,3 @@',
  '+diff --git a/x b/x',
  '+Binary files a and b differ',
  '+three',
  '\\ No newline at end of file',
  '',
].join('\n');

describe('parsePatch', () => {
  test.each([
    [
      'a modified file',
      modified,
      [
        {
          binary: false,
          added: [
            { start: 4, end: 5 },
            { start: 10, end: 10 },
          ],
          deletedAfter: [1],
        },
      ],
    ],
    ['a binary file', binary, [{ binary: true, added: [], deletedAfter: [] }]],
    ['a mode-only change', modeOnly, [{ binary: false, added: [], deletedAfter: [] }]],
    [
      'an added file whose lines look like headers',
      added,
      [{ binary: false, added: [{ start: 1, end: 3 }], deletedAfter: [] }],
    ],
    ['nothing', '', []],
  ])('reads %s', (_name, patch, expected) => {
    expect(parsePatch(patch)).toEqual(expected);
  });

  test('keeps sections apart and in order, whatever mix of hunks they have', () => {
    const sections = parsePatch([binary, modeOnly, added, modified, binary].join(''));
    expect(sections.map((section) => section.binary)).toEqual([true, false, false, false, true]);
    expect(sections.map((section) => section.added.length)).toEqual([0, 0, 1, 2, 0]);
  });
});

describe('PatchStream', () => {
  test('finds the sections parsePatch finds, wherever the pieces are cut', () => {
    const part = fc.constantFrom(binary, modeOnly, added, modified);
    fc.assert(
      fc.property(fc.array(part, { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 12 }), (parts, cuts) => {
        const patch = parts.join('');
        const stream = new PatchStream();
        let from = 0;
        for (const cut of [...cuts.map((at) => at % (patch.length + 1))].sort((a, b) => a - b)) {
          stream.push(patch.slice(from, Math.max(from, cut)));
          from = Math.max(from, cut);
        }
        stream.push(patch.slice(from));
        expect(stream.end()).toEqual(parsePatch(patch));
      }),
    );
  });

  test('cut one character at a time, in and around every marker', () => {
    const patch = [modified, binary, added, modeOnly, modified].join('');
    const stream = new PatchStream();
    for (const char of patch) stream.push(char);
    expect(stream.end()).toEqual(parsePatch(patch));
  });
});

describe('mergeRanges', () => {
  test.each([
    [
      'joins touching ranges',
      [
        { start: 1, end: 2 },
        { start: 3, end: 3 },
      ],
      [{ start: 1, end: 3 }],
    ],
    [
      'joins overlapping ranges',
      [
        { start: 5, end: 9 },
        { start: 1, end: 6 },
      ],
      [{ start: 1, end: 9 }],
    ],
    [
      'keeps separate ranges',
      [
        { start: 1, end: 1 },
        { start: 3, end: 3 },
      ],
      [
        { start: 1, end: 1 },
        { start: 3, end: 3 },
      ],
    ],
  ])('%s', (_name, input, expected) => {
    expect(mergeRanges(input)).toEqual(expected);
  });

  test('covers exactly the same lines, sorted and without touching neighbours', () => {
    const range = fc
      .tuple(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 0, max: 5 }))
      .map(([start, length]) => ({ start, end: start + length }));
    fc.assert(
      fc.property(fc.array(range, { maxLength: 12 }), (ranges) => {
        const lines = (list: typeof ranges) =>
          [...new Set(list.flatMap((r) => Array.from({ length: r.end - r.start + 1 }, (_, i) => r.start + i)))].sort(
            (a, b) => a - b,
          );
        const merged = mergeRanges(ranges);
        expect(lines(merged)).toEqual(lines(ranges));
        merged.forEach((r, i) => {
          if (i > 0) expect(r.start).toBeGreaterThan((merged[i - 1]?.end ?? 0) + 1);
        });
      }),
    );
  });
});

describe('hunk headers', () => {
  test('any well-formed header gives its new-side range', () => {
    const header = fc.record({
      oldStart: fc.nat(10_000),
      oldCount: fc.option(fc.nat(50), { nil: undefined }),
      newStart: fc.nat(10_000),
      newCount: fc.option(fc.nat(50), { nil: undefined }),
      context: fc.constantFrom('', ' function foo()', ' @@ tricky'),
    });
    fc.assert(
      fc.property(header, (h) => {
        const side = (start: number, count: number | undefined) =>
          count === undefined ? `${start}` : `${start},${count}`;
        const patch = `diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -${side(h.oldStart, h.oldCount)} +${side(h.newStart, h.newCount)} @@${h.context}\n`;
        const [section] = parsePatch(patch);
        const count = h.newCount ?? 1;
        if (count === 0) {
          expect(section).toEqual({ binary: false, added: [], deletedAfter: [h.newStart] });
        } else {
          expect(section).toEqual({
            binary: false,
            added: [{ start: h.newStart, end: h.newStart + count - 1 }],
            deletedAfter: [],
          });
        }
      }),
    );
  });
});
