import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { base62, crc32, hasValidTokenChecksum, tokenChecksum } from './checksum.js';
import { fakeChecksumToken, wrongChecksumToken } from './sample-tokens.js';

describe('token checksums', () => {
  test('crc32 matches the standard check value', () => {
    expect(crc32('123456789')).toBe(0xcbf43926);
  });

  test.each([
    [0, '000000'],
    [61, '00000z'],
    [62, '000010'],
  ])('base62(%i) is %s', (value, expected) => {
    expect(base62(value, 6)).toBe(expected);
  });

  test('generated tokens validate and their one-character corruptions do not', () => {
    fc.assert(
      fc.property(fc.constantFrom('ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'npm_'), fc.integer(), (prefix, seed) => {
        expect(hasValidTokenChecksum(fakeChecksumToken(prefix, seed))).toBe(true);
        expect(hasValidTokenChecksum(wrongChecksumToken(prefix, seed))).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  test('the checksum is 6 characters for any body', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 30, maxLength: 30 }), (body) => {
        expect(tokenChecksum(body)).toHaveLength(6);
      }),
    );
  });
});
