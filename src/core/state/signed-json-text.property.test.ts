import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { checkSignature, checkSignatureOfText, type SignedKind, signObject } from './signed-json.js';

// checkSignatureOfText checks a compact file's MAC on its own characters instead of serializing the parsed object
// again. It must answer exactly as checkSignature on every text, whatever was done to it.
const key = Buffer.alloc(32, 7);
const other = Buffer.alloc(32, 8);
const KINDS: SignedKind[] = ['stamp-evidence', 'run-cache', 'state', 'stop-cache'];

/** Objects as the fast paths sign them: strings (with escapes and non-ASCII), doubles, arrays, nested objects. */
const body = fc.dictionary(
  fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('1', '02', 'mac2', '__proto__x')),
  fc.jsonValue({ maxDepth: 3 }),
  { maxKeys: 6 },
);

/** The text `writeSignedJsonFile` writes with `indent: 0`. */
function compact(kind: SignedKind, value: Record<string, unknown>, signingKey: Buffer): string {
  return `${JSON.stringify(signObject(kind, value, signingKey))}\n`;
}

function agree(kind: SignedKind, text: string, checkKey: Buffer | null): void {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return; // not JSON: the callers never get this far
  }
  expect(checkSignatureOfText(kind, text, value, checkKey)).toBe(checkSignature(kind, value, checkKey));
}

describe('a signature checked on the file text', () => {
  test('valid as written (with or without the newline), under the signing key and kind only', () => {
    const text = compact('stamp-evidence', { status: 'x', tracked: [['/a', 1.5, -0, 1e21]] }, key);
    const value = JSON.parse(text);
    expect(checkSignatureOfText('stamp-evidence', text, value, key)).toBe('valid');
    expect(checkSignatureOfText('stamp-evidence', text.trimEnd(), value, key)).toBe('valid');
    expect(checkSignatureOfText('run-cache', text, value, key)).toBe('forged');
    expect(checkSignatureOfText('stamp-evidence', text, value, other)).toBe('forged');
    expect(checkSignatureOfText('stamp-evidence', text, value, null)).toBe('forged');
    const edited = text.replace('"x"', '"y"');
    expect(checkSignatureOfText('stamp-evidence', edited, JSON.parse(edited), key)).toBe('forged');
    // The text decides, not the object (callers pass the object parsed from it): so no second serialization ran.
    expect(checkSignatureOfText('stamp-evidence', text, { ...value, status: 'y' }, key)).toBe('valid');
    // Re-indented: checked as before, on the object.
    const indented = JSON.stringify(value, null, 2);
    expect(checkSignatureOfText('stamp-evidence', indented, JSON.parse(indented), key)).toBe('valid');
  });

  test('answers as checkSignature on signed texts and on every one-character edit of them', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...KINDS),
        body,
        fc.boolean(),
        fc.nat(),
        fc.string({ minLength: 0, maxLength: 3 }),
        (kind, value, signedWithOther, at, insert) => {
          const text = compact(kind, value, signedWithOther ? other : key);
          agree(kind, text, key);
          const where = at % text.length;
          agree(kind, text.slice(0, where) + insert + text.slice(where + 1), key);
          agree(kind, text.slice(0, where) + insert + text.slice(where), key);
        },
      ),
      { numRuns: 400 },
    );
  });

  test('a second mac, a mac that is not the last key, or a mac on an array is never taken from the text', () => {
    const text = compact('state', { a: 1 }, key);
    const mac = JSON.parse(text).mac as string;
    for (const crafted of [
      `{"mac":"${mac}","a":1,"mac":"${mac}"}`,
      `{"a":1,"mac":"${mac}","b":2}`,
      `[{"a":1},"mac":"${mac}"}]`,
      `{"a":1,"mac":"${mac.toUpperCase()}"}`,
    ])
      agree('state', crafted, key);
  });
});
