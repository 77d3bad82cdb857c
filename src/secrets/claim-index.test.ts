import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { claimIndex } from './disk-queue.js';

describe('claimIndex: one claim word, a queue taken from both ends', () => {
  test('any interleaving of claims from either end gives each index exactly once, then -1', () => {
    fc.assert(
      fc.property(fc.nat(200), fc.array(fc.boolean(), { minLength: 1, maxLength: 64 }), (length, ends) => {
        const word = new BigInt64Array(new SharedArrayBuffer(8));
        const seen: number[] = [];
        const fronts: number[] = [];
        const backs: number[] = [];
        for (let turn = 0; ; turn++) {
          const fromBack = ends[turn % ends.length]!;
          const index = claimIndex(word, length, fromBack);
          if (index < 0) break;
          seen.push(index);
          (fromBack ? backs : fronts).push(index);
        }
        expect(seen.slice().sort((a, b) => a - b)).toEqual(Array.from({ length }, (_, index) => index));
        // The front goes largest first from 0, the back smallest first from the end, and neither skips an index.
        expect(fronts).toEqual(Array.from({ length: fronts.length }, (_, index) => index));
        expect(backs).toEqual(Array.from({ length: backs.length }, (_, index) => length - 1 - index));
        expect(claimIndex(word, length, false)).toBe(-1);
        expect(claimIndex(word, length, true)).toBe(-1);
      }),
    );
  });
});
