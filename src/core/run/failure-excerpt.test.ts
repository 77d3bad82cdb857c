import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { EXCERPT_LINE_CHARS, failureExcerpt, failureLines, MIN_EXCERPT_LINES } from './failure-excerpt.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/failure-output');

/** Each runner's real-shaped output and the line an agent must see to fix it. */
const RUNNERS: ReadonlyArray<[file: string, cause: string]> = [
  ['mocha.txt', `AssertionError: expected 'W/"5-LSRhEPR4dnpZ7DvJ5VXfJHm7Wfs"' to equal 'W/"6-abc"'`],
  ['jest.txt', '● cart › totals the cart'],
  ['vitest.txt', "AssertionError: expected '1.24' to be '1.25' // Object.is equality"],
  ['ava.txt', '✘ [fail]: parser › rejects a trailing comma Did not throw'],
  ['node-test.txt', '✖ decodes a percent-encoded path (1.48512ms)'],
  ['pytest.txt', 'FAILED tests/test_requests.py::TestRequests::test_params_are_merged'],
  ['go-test.txt', 'duration_test.go:42: ParseDuration("1h30m") = 1h0m0s, want 1h30m0s'],
  ['cargo-test.txt', "thread 'tests::parses_prerelease' panicked at src/lib.rs:412:9:"],
  ['tsc.txt', "src/cart/total.ts(14,7): error TS2322: Type 'string' is not assignable to type 'number'."],
  ['eslint.txt', "14:7  error  'discount' is assigned a value but never used  no-unused-vars"],
];

function lastLine(text: string): string {
  return text.trimEnd().split('\n').at(-1)!;
}

describe('failureExcerpt', () => {
  test.each(RUNNERS)('%s: the cause and the true last line, never the passing head', (file, cause) => {
    const output = readFileSync(join(FIXTURES, file), 'utf8');
    const excerpt = failureExcerpt(output, 20);
    expect(excerpt).toContain(cause);
    expect(excerpt.endsWith(lastLine(output))).toBe(true);
    expect(excerpt.split('\n').length).toBeLessThanOrEqual(20);
    const firstLines = output
      .split('\n')
      .slice(0, 8)
      .filter((line) => line.trim() !== '');
    if (output.split('\n').length > 20) {
      const head = firstLines.filter((line) => !excerpt.split('\n').includes(line));
      expect(head.length, 'the head of a long output is not the excerpt').toBeGreaterThan(0);
    }
  });

  test('a failure buried under 300 passing lines and a long passing tail is still shown', () => {
    const output = [
      ...Array.from({ length: 300 }, (_, i) => `ok ${i + 1} - adds ${i}`),
      'not ok 301 - add is broken: expected 3',
      ...Array.from({ length: 100 }, (_, i) => `ok ${i + 302} - later ${i}`),
      '# fail 1',
    ].join('\n');
    const excerpt = failureExcerpt(output, 10);
    expect(excerpt).toContain('not ok 301 - add is broken: expected 3');
    expect(excerpt.split('\n').at(-1)).toBe('# fail 1');
    expect(excerpt).not.toContain('ok 1 - adds 0');
    expect(excerpt).toMatch(/… \d+ line\(s\) omitted/);
  });

  test('the failure line comes with its location line first, before other context, even in six lines', () => {
    const output = [
      ...Array.from({ length: 300 }, (_, i) => `ok ${i + 1} - adds ${i}`),
      'not ok 301 - add is broken',
      '  ---',
      '  operator: strictEqual',
      '  expected: 3',
      '  actual: -1',
      '  at: math.js:1:28',
      '  ...',
      '# fail 1',
    ].join('\n');
    const excerpt = failureExcerpt(output, 6).split('\n');
    expect(excerpt).toHaveLength(6);
    const shown = excerpt.filter((line) => !line.startsWith('…'));
    expect(shown.slice(0, 2)).toEqual(['not ok 301 - add is broken', '  at: math.js:1:28']);
    expect(shown.at(-1)).toBe('# fail 1');
    // With room for more, the context follows, and the location is still there.
    expect(failureExcerpt(output, 10)).toContain('  at: math.js:1:28');
  });

  test("an error's first stack frame, after its message and blank lines, is its location", () => {
    const output = [
      ...Array.from({ length: 50 }, (_, i) => `ok ${i + 1}`),
      'AssertionError: Expected values to be strictly equal:',
      '',
      '2 !== 3',
      '',
      '    at TestContext.<anonymous> (file:///repo/test/math.test.js:7:10)',
      '    at Test.runInAsyncScope (node:async_hooks:206:9)',
      ...Array.from({ length: 20 }, (_, i) => `ok ${i + 60}`),
      'not ok 80 - second',
      ...Array.from({ length: 20 }, (_, i) => `ok ${i + 81}`),
      '# fail 2',
    ].join('\n');
    const excerpt = failureExcerpt(output, 8);
    expect(excerpt).toContain('AssertionError: Expected values to be strictly equal:');
    expect(excerpt).toContain('(file:///repo/test/math.test.js:7:10)');
    expect(excerpt.split('\n').length).toBeLessThanOrEqual(8);
  });

  test('short text is returned whole (trailing blank lines and colour codes dropped)', () => {
    expect(failureExcerpt('\u001b[31mError: boom\u001b[0m\nat x\n\n', 10)).toBe('Error: boom\nat x');
  });

  test('is bounded and always ends with the last line', () => {
    const line = fc.oneof(
      fc.string({ maxLength: 600 }),
      fc.constantFrom('not ok 3 - x', 'FAIL src/a.test.ts', 'Error: boom', '  1) suite', 'E   assert 1 == 2', ''),
    );
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 300 }), fc.integer({ min: 0, max: 60 }), (lines, max) => {
        const text = lines.join('\n');
        const excerpt = failureExcerpt(text, max);
        const shown = excerpt.split('\n');
        expect(shown.length).toBeLessThanOrEqual(Math.max(max, MIN_EXCERPT_LINES));
        for (const each of shown) expect(each.length).toBeLessThanOrEqual(EXCERPT_LINE_CHARS + 20);
        // With room for everything the excerpt is the whole (normalised) text: its last line must survive any cut.
        const whole = failureExcerpt(text, 100_000).split('\n');
        expect(shown.at(-1)).toBe(whole.at(-1));
      }),
    );
  });

  test('failureLines lists the lines naming the failure, first ones first', () => {
    const output = readFileSync(join(FIXTURES, 'go-test.txt'), 'utf8');
    expect(failureLines(output, 2)).toEqual(['--- FAIL: TestParseDuration (0.00s)', 'FAIL']);
  });
});
