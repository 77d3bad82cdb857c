import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parsePatch, toRanges } from './parse-patch.js';

const LOG = [
  '\0commit 1111111111111111111111111111111111111111',
  '',
  'diff --git a/src/a.ts b/src/a.ts',
  'index 1..2 100644',
  '--- a/src/a.ts',
  '+++ b/src/a.ts',
  '@@ -3,0 +4,2 @@ context',
  '+const a = 1;',
  '+const b = 2;',
  '@@ -10 +12 @@',
  '-old',
  '+new',
  'diff --git a/logo.png b/logo.png',
  'Binary files a/logo.png and b/logo.png differ',
  '\0commit 2222222222222222222222222222222222222222',
  'diff --git "a/dir/with space.txt" "b/dir/with space.txt"',
  'new file mode 100644',
  '--- /dev/null',
  '+++ "b/dir/with space.txt"',
  '@@ -0,0 +1 @@',
  '+hello',
].join('\n');

describe('parsePatch', () => {
  test('reads added lines with their new line numbers, per commit and file', () => {
    expect(parsePatch(LOG)).toEqual([
      {
        commit: '1111111111111111111111111111111111111111',
        path: 'src/a.ts',
        binary: false,
        added: [
          { line: 4, text: 'const a = 1;' },
          { line: 5, text: 'const b = 2;' },
          { line: 12, text: 'new' },
        ],
      },
      { commit: '1111111111111111111111111111111111111111', path: 'logo.png', binary: true, added: [] },
      {
        commit: '2222222222222222222222222222222222222222',
        path: 'dir/with space.txt',
        binary: false,
        added: [{ line: 1, text: 'hello' }],
      },
    ]);
  });

  test('never throws on arbitrary text', () => {
    fc.assert(fc.property(fc.string(), (text) => Array.isArray(parsePatch(text))));
  });

  test('toRanges folds consecutive lines', () => {
    expect(toRanges([1, 2, 3, 7, 9, 10])).toEqual([
      { start: 1, end: 3 },
      { start: 7, end: 7 },
      { start: 9, end: 10 },
    ]);
  });
});

describe('parsePatch names with spaces', () => {
  test('the tab git puts after a `+++` name with a space is not part of the path', () => {
    const patch =
      'diff --git a/my file.txt b/my file.txt\n--- a/my file.txt\t\n+++ b/my file.txt\t\n@@ -0,0 +1 @@\n+x\n';
    expect(parsePatch(patch).map((file) => file.path)).toEqual(['my file.txt']);
  });
});
