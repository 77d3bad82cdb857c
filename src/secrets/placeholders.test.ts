import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isPlaceholder } from './placeholders.js';
import { randomString } from './sample-tokens.js';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** Random base64 as a key's bytes give it (fast-check's own strings shrink to `AAAA…`, which no key is). */
const base64Text = (min: number, max: number) =>
  fc.tuple(fc.integer({ min, max }), fc.nat()).map(([length, seed]) => randomString(length, BASE64, seed));
/** A stand-in word in any mix of cases, as random base64 spells one now and then. */
const anyCase = fc
  .tuple(
    fc.constantFrom('todo', 'fixme', 'dummy', 'example', 'redacted', 'notreal', 'xxxx'),
    fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
  )
  .map(([word, upper]) => [...word].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''))
  // Six letters or more in one case, or capitalised, are spelt by design, not by chance (the cases below).
  .filter((word) => word.length < 6 || !/^(?:[a-z]+|[A-Z]+|[A-Z][a-z]+)$/.test(word));

describe('placeholders in long key material', () => {
  test('a stand-in word that random base64 spells by chance does not hide a key store (it did once in 300)', () => {
    // Two real openssl stores held `tODo` and `toDO` in their base64.
    fc.assert(
      fc.property(base64Text(200, 1400), base64Text(1, 40), anyCase, (body, tail, cased) => {
        // Letters on both sides: the word is inside the material, not standing apart.
        const value = `MII${body}${cased}${tail.replace(/^[^A-Za-z0-9]/, 'Q')}Q`;
        expect(isPlaceholder(value)).toBe(false);
      }),
    );
  });

  test.each([
    ['a PEM body that says where the key goes', `${'A'.repeat(30)}/YOUR-PRIVATE-KEY/TODO/${'B'.repeat(90)}`],
    [
      'key material cut short',
      `MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKjMzEfYyjiWA4R4...${'x'.repeat(40)}Q`,
    ],
    ['a run of x', 'x'.repeat(400)],
    [
      "AWS's example session token (EXAMPLE mid-token)",
      `AQoDYXdzEPT//////////wEXAMPLEtc764bNrC9SAPBSM22wDOk4x4HIZ8j4FZTwdQWLWsKWHGBuFqwAeMicRXmxfpSPfIeoIYRqTflfKD8YUuwthAx7mSEI/qkPpKPi/kMcGdQrmGdeehM4IC1NtBmUpp2wUE8phUZampKsburEDy0KPkyQDYwT7WZ0wq5VSXDvp75YU9HFvlRd8Tx6q6fE8YQcHNVXAkiY9q6d+xo0rKwT38xVqr7ZD0u0iPPkUL64lIZbqBAz+scqKmlzm8FDrypNC9Yjc8fPOLn9FX9KSYvKTr4rvx3iSIlTJabIQwj2ICCR/oLxBA==`,
    ],
    [
      'a capitalised word mid-material',
      `${randomString(120, BASE64, 'cap')}Redacted${randomString(40, BASE64, 'cap2')}`,
    ],
    ['a stand-in repeated', 'YOURPRIVATEKEYHEREdummy'.repeat(10)],
  ])('%s is still a placeholder', (_name, value) => {
    expect(value.length).toBeGreaterThan(100);
    expect(isPlaceholder(value)).toBe(true);
  });

  test.each([['todo'], ['TODO'], ['tODo'], ['sk_live_xxxx'], ['abc...']])(
    'short value %s: a word anywhere counts',
    (v) => {
      expect(isPlaceholder(`${v}9f8Kq2LmZ`)).toBe(true);
    },
  );
});
