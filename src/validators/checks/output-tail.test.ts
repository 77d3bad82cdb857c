import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { OutputTail } from './output-tail.js';

const small = { lines: 5, bytes: 1024, failureLines: 3 };

describe('OutputTail', () => {
  test('keeps the true last lines of a long output, whatever the chunking', () => {
    const lines = Array.from({ length: 10_000 }, (_, i) => `line ${i}`);
    const text = `${lines.join('\n')}\n`;
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 5_000 }), { maxLength: 40 }), (cuts) => {
        const tail = new OutputTail(small);
        let at = 0;
        for (const size of cuts) {
          tail.push(text.slice(at, at + size));
          at += size;
        }
        tail.push(text.slice(at));
        expect(tail.render()).toBe(['… 9995 earlier line(s) omitted', ...lines.slice(-5)].join('\n'));
      }),
    );
  });

  test('surfaces failure lines from early in the output ahead of a passing tail', () => {
    const tail = new OutputTail(small);
    tail.push('ok 1 - adds\nnot ok 2 - subtracts\n');
    for (let i = 3; i < 1000; i += 1) tail.push(`ok ${i} - fine\n`);
    const text = tail.render();
    expect(text.split('\n')[0]).toBe('failure lines found earlier in the output:');
    expect(text).toContain('not ok 2 - subtracts');
    expect(text).toContain('ok 999 - fine');
  });

  test.each([
    'not ok 3 - parses dates',
    'FAIL  src/a.test.ts > adds',
    '✗ renders the header',
    '--- FAIL: TestParse (0.00s)',
    'TypeError: x is not a function',
    'src/a.ts(2,12): error TS2322: Type string is not assignable',
    'error[E0382]: borrow of moved value',
  ])('recognises %j as a failure line', (line) => {
    const tail = new OutputTail(small);
    tail.push(`${line}\n`);
    for (let i = 0; i < 10; i += 1) tail.push(`ok ${i}\n`);
    expect(tail.render()).toContain(line);
  });

  test('bounds bytes as well as lines, strips colour codes and cuts huge lines', () => {
    const tail = new OutputTail({ lines: 100, bytes: 50, failureLines: 1 });
    tail.push(`\u001b[31mred\u001b[0m\n${'x'.repeat(30)}\n${'y'.repeat(30)}\n`);
    expect(tail.render()).toBe(`… 2 earlier line(s) omitted\n${'y'.repeat(30)}`);
    const wide = new OutputTail(small);
    wide.push('z'.repeat(10_000));
    expect(wide.render()).toMatch(/^z{2000} … \(10000 chars\)$/);
  });

  test('joins lines per stream, so interleaved stdout and stderr never split a line', () => {
    const tail = new OutputTail(small);
    tail.push('hel', 'stdout');
    tail.push('Error: boom\n', 'stderr');
    tail.push('lo\n', 'stdout');
    expect(tail.render()).toBe('Error: boom\nhello');
  });
});
