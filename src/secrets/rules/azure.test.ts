import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { bytesOf } from '../../../test/support/scan-bytes.js';
import { Utf8ByteView } from '../byte-view.js';
import { SecretScanner } from '../scanner.js';
import { keyWithinName, keyWithinNameBytes } from './azure.js';
import { builtinRules } from './index.js';

/** Names about the named key's check: `key` within 30 name characters of the word, or past them, or after a stop. */
const piece = fc.constantFrom(
  ...['account', 'storage', 'Account', 'STORAGE', 'key', 'Key', 'KEY', 'ke', 'y', '_', '.', '-', 'x', '7'],
  ...['name_of_twenty_chars', 'a'.repeat(29), ' ', '"', '=', ':', '\n', 'é', '😀', 'kéy', '$'],
);
const texts = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''));

describe("the Azure named key's check on bytes", () => {
  test('keyWithinNameBytes is keyWithinName at every offset', () => {
    let held = 0;
    fc.assert(
      fc.property(texts, (text) => {
        const bytes = bytesOf(text);
        for (let after = 0; after <= text.length; after++) {
          const expected = keyWithinName(text, after);
          if (expected) held++;
          expect(keyWithinNameBytes(bytes, after)).toBe(expected);
        }
      }),
      { numRuns: 2000 },
    );
    expect(held).toBeGreaterThan(1000);
  });

  test('the scan from the bytes, which drops hits by it, finds what the string scan finds', () => {
    const scanner = new SecretScanner(builtinRules);
    const value = `${'Ab1+'.repeat(21)}cd==`;
    const separators = fc.constantFrom('=', ': ', '"]=', ' ', '\n', '": "', '_x=');
    const lines = fc
      .array(fc.tuple(texts, separators, fc.boolean()), { maxLength: 6 })
      .map((parts) =>
        parts.map(([name, separator, valued]) => `${name}${separator}${valued ? value : 'x'}`).join('\n'),
      );
    const found = (text: string) =>
      scanner.scanText(text, { path: 'app.env', keepAllowed: true, keepRejected: true }).map((item) => item.start);
    const foundInBytes = (text: string) =>
      scanner
        .scanView(new Utf8ByteView(Buffer.from(text, 'utf8'), !/[^\x00-\x7f]/.test(text)), {
          path: 'app.env',
          keepAllowed: true,
          keepRejected: true,
        })!
        .map((item) => item.start);
    let reported = 0;
    fc.assert(
      fc.property(lines, (text) => {
        const expected = found(text);
        reported += expected.length;
        expect(foundInBytes(text)).toEqual(expected);
      }),
      { numRuns: 1500 },
    );
    expect(reported).toBeGreaterThan(50);
  });
});
