import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { namedKeyCheck, namedKeyCheckBytes, spacedValueAfter, spacedValueAfterBytes } from './prose-checks.js';

/** A text read as a byte scan reads it: ASCII as itself, any other unit as a byte of 0x80 or more (`unit-bytes.ts`). */
function bytesOf(text: string): Uint8Array {
  return Uint8Array.from(text, (char) => (char.charCodeAt(0) < 128 ? char.charCodeAt(0) : 0x82));
}

const part = fc.constantFrom(...'aZ7_-:="\' \t\n,;é('.split(''), 'abcdefghij0123456789', '  ', 's', 'key', 'token');
const around = fc.array(part, { maxLength: 10 }).map((parts) => parts.join(''));

describe('the prose checks read from bytes', () => {
  for (const [name, text, bytes] of [
    ['named key', namedKeyCheck, namedKeyCheckBytes],
    ['spaced key', spacedValueAfter, spacedValueAfterBytes],
  ] as const) {
    test(`${name}: false only where the check of the hit's line is`, () => {
      let refused = 0;
      let held = 0;
      fc.assert(
        fc.property(around, fc.constantFrom('key', 'token'), around, (before, keyword, after) => {
          const whole = `${before}${keyword}${after}`;
          const end = before.length + keyword.length;
          // The tile: the hit's line and its line feed.
          const start = whole.lastIndexOf('\n', end - 1) + 1;
          const lineFeed = whole.indexOf('\n', end);
          const line = whole.slice(start, lineFeed === -1 ? whole.length : lineFeed + 1);
          const onBytes = bytes(bytesOf(whole), end);
          const onLine = text(line, end - start);
          if (onLine) held++;
          if (!onBytes) refused++;
          if (!onBytes) expect(onLine, JSON.stringify(whole)).toBe(false);
          // On one line the two readings agree.
          if (start === 0 && lineFeed === -1) expect(onBytes).toBe(text(whole, end));
        }),
        { numRuns: 5000 },
      );
      expect(refused).toBeGreaterThan(500);
      expect(held).toBeGreaterThan(20);
    });
  }
});
