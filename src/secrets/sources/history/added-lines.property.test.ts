import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { AddedLines } from './added-lines.js';

/**
 * `AddedLines` starts small and grows as a file's added lines arrive (so that it has grown before V8 optimizes the
 * parse): whatever the lines' sizes, and however often the lines before a piece are dropped, the text of the first
 * lines is those lines joined, and their numbers are kept beside them.
 */
const NL = Buffer.from('\n');
const line = fc.uint8Array({ maxLength: 700 }).map((bytes) => Buffer.from(bytes.filter((byte) => byte !== 0x0a)));

describe('AddedLines', () => {
  test('text(count) is the first count lines joined, across growths and drops', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(line, fc.boolean(), fc.nat(5)), { maxLength: 60 }), fc.nat(60), (steps, wanted) => {
        const lines = new AddedLines();
        let kept: Array<{ bytes: Buffer; number: number }> = [];
        let number = 1;
        for (const [bytes, drop, dropCount] of steps) {
          // Each line read from the middle of a larger chunk, as git's output arrives.
          const chunk = Buffer.concat([Buffer.from('+'), bytes, Buffer.from('\n')]);
          lines.add(chunk, 1, 1 + bytes.length, number);
          kept.push({ bytes, number });
          number += 2;
          if (drop) {
            lines.dropBefore(dropCount);
            kept = kept.slice(dropCount);
          }
        }
        expect(lines.count).toBe(kept.length);
        expect(lines.numbers).toEqual(kept.map((item) => item.number));
        const joined = (items: typeof kept) => Buffer.concat(items.map((item) => Buffer.concat([item.bytes, NL])));
        if (kept.length > 0) {
          const count = 1 + (wanted % kept.length);
          const bytes = joined(kept.slice(0, count));
          expect(lines.text(count)).toBe(bytes.toString('utf8', 0, bytes.length - 1));
        }
        lines.clear();
        expect(lines.count).toBe(0);
      }),
    );
  });
});
