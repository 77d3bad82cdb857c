import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { byteCheckOf, gateCheckOf } from './gate-checks.js';
import { builtinRules } from './rules/index.js';

// Every built-in gate check with a byte reading (`ByteHitCheck`): the byte reading of a whole text is false only
// where the check of the tile a byte scan cuts (the hit's line and its line feed) is false.

/** A text read as a byte scan reads it: ASCII as itself, any other unit as a byte of 0x80 or more (`unit-bytes.ts`). */
function bytesOf(text: string): Uint8Array {
  return Uint8Array.from(text, (char) => (char.charCodeAt(0) < 128 ? char.charCodeAt(0) : 0x82));
}

const checked = [
  ...new Map(builtinRules.flatMap((rule) => (byteCheckOf(rule.gate) ? [[rule.gate, rule]] : []))).values(),
];

const part = fc.constantFrom(
  ...'aZ7_-.:="\'` \t\n,;é(>sbr'.split(''),
  'abcdefghij0123456789',
  'ABCdef',
  '  ',
  '12',
  's.',
  'key',
  'Key',
  'token',
  'auth',
);
const around = fc.array(part, { maxLength: 10 }).map((parts) => parts.join(''));

describe('gate checks read from bytes', () => {
  test('the key-name, prose and Vault legacy gates have one', () => {
    const ids = checked.map((rule) => rule.id);
    for (const id of ['generic-secret-key-name', 'providers-prose-named-key', 'hashicorp-vault-legacy-token-named'])
      expect(ids).toContain(id);
  });

  for (const rule of checked) {
    test(`${rule.id}: false only where the check of the hit's line is`, () => {
      const check = gateCheckOf(rule.gate)!;
      const bytes = byteCheckOf(rule.gate)!;
      let refused = 0;
      fc.assert(
        fc.property(around, fc.constantFrom(...rule.keywords), around, (before, keyword, after) => {
          const whole = `${before}${keyword}${after}`;
          const end = before.length + keyword.length;
          const start = whole.lastIndexOf('\n', end - 1) + 1;
          const lineFeed = whole.indexOf('\n', end);
          const line = whole.slice(start, lineFeed === -1 ? whole.length : lineFeed + 1);
          if (bytes(bytesOf(whole), end)) return;
          refused++;
          expect(check(line, end - start), JSON.stringify(whole)).toBe(false);
        }),
        { numRuns: 3000 },
      );
      expect(refused).toBeGreaterThan(300);
    });
  }
});
