import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { bytesOf } from '../../test/support/scan-bytes.js';
import {
  keyNameValueMayFollow,
  keyNameValueMayFollowBytes,
  quotedTooWeakBytes,
  tooWeakForKeyName,
} from './key-name-value.js';
import { quotedValueAt, separatorAt } from './name-gate.js';

/** Names, separators, quotes, blanks and values about the checks' bounds (16 characters, a digit and a letter). */
const piece = fc.constantFrom(
  ...['stripeKey', 'TagKey', 'limit_key', 'auth', 'Key12', 'key', '7', '42', 'string', 'KmsKey', 'x'],
  ...['=', ':', '?', '!', '?=', '=>', ':=', '==', ' ', '\t', '         ', '\\', '"', "'", '`', '&quot;', ',', ';'],
  ...['{', '}', '[', ']', '(', ')', '<', '>', '\n', '\r', 'é', '😀', '-', '_', '.'],
  ...['a1b2c3d4e5f6g7h8', 'a1b2c3d4e5f6g7h', 'abcdefghijklmnopq', '1234567890123456', 'MaxResults'],
  ...['"a1b2c3d4e5f6g7h8"', "'MaxResults'", '""', 'x'.repeat(199), 'a1'.repeat(101)],
  ...[': "MaxResults"', "= 'a1b2c3d4e5f6g7h8'", '\\": \\"', '=> "a1"', ': "a1b2c3d4é5f6g7h8"'],
);
const texts = fc.array(piece, { maxLength: 16 }).map((pieces) => pieces.join(''));

describe('the key-name checks on bytes', () => {
  test('keyNameValueMayFollowBytes is keyNameValueMayFollow at every offset', () => {
    fc.assert(
      fc.property(texts, (text) => {
        const bytes = bytesOf(text);
        for (let after = 0; after <= text.length; after++)
          expect(keyNameValueMayFollowBytes(bytes, after)).toBe(keyNameValueMayFollow(text, after));
      }),
      { numRuns: 1000 },
    );
  });

  test("quotedTooWeakBytes is the gate's quoted check with tooWeakForKeyName, at every name end", () => {
    let rejected = 0;
    fc.assert(
      fc.property(texts, (text) => {
        const bytes = bytesOf(text);
        for (let end = 0; end <= text.length; end++) {
          const value = quotedValueAt(text, separatorAt(text, end));
          const expected = value !== undefined && (value === '' || tooWeakForKeyName(value));
          if (expected) rejected++;
          expect(quotedTooWeakBytes(bytes, end)).toBe(expected);
        }
      }),
      { numRuns: 1000 },
    );
    expect(rejected).toBeGreaterThan(100);
  });
});
