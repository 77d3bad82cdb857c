import { describe, expect, test } from 'vitest';
import { appendAll, maxOf } from './append-all.js';

/** Lists that grow with the input (files in a tree, findings in a scan) must not go through a spread call. */
describe('appendAll and maxOf with lists far past the argument limit', () => {
  const many = Array.from({ length: 400_000 }, (_, index) => index);

  test('a spread push of this many items overflows the stack; appendAll does not', () => {
    expect(() => [].push(...(many as never[]))).toThrow(RangeError);
    const target = [-1];
    expect(appendAll(target, many)).toBe(target);
    expect(target).toHaveLength(400_001);
    expect(target[400_000]).toBe(399_999);
  });

  test('maxOf matches Math.max, including the empty and NaN cases', () => {
    expect(maxOf(many)).toBe(399_999);
    expect(maxOf([])).toBe(Math.max());
    expect(maxOf([], 0)).toBe(0);
    expect(maxOf([3, Number.NaN, 5])).toBeNaN();
    expect(maxOf([-2, -7])).toBe(-2);
  });
});
