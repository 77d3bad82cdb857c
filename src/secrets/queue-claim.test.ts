import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { claimIndex, newQueueClaim, type QueueEnd, workerEnd } from './queue-claim.js';

/** Claims from `ends` (a thread each) in the turns `order` picks among the threads still claiming, until none is. */
function claimAll(length: number, ends: QueueEnd[], order: number[]): number[][] {
  const claim = new BigInt64Array(newQueueClaim());
  const taken = ends.map((): number[] => []);
  let claiming = ends.map((_, thread) => thread);
  for (let step = 0; claiming.length > 0; step++) {
    const thread = claiming[(order[step % Math.max(order.length, 1)] ?? step) % claiming.length]!;
    const index = claimIndex(claim, length, ends[thread]!);
    if (index < 0) claiming = claiming.filter((other) => other !== thread);
    else taken[thread]!.push(index);
  }
  return taken;
}

describe("a scan queue's claims from both ends", () => {
  test('every file is claimed exactly once, whatever the threads, their ends and their order', () => {
    fc.assert(
      fc.property(
        fc.nat(300),
        fc.array(fc.constantFrom<QueueEnd>('front', 'back'), { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(20), { maxLength: 50 }),
        (length, ends, order) => {
          const taken = claimAll(length, ends, order);
          const all = taken.flat().sort((a, b) => a - b);
          expect(all).toEqual(Array.from({ length }, (_, index) => index));
          // Each thread goes one way: from the front up, from the back down.
          ends.forEach((end, thread) => {
            const mine = taken[thread]!;
            const sorted = [...mine].sort((a, b) => (end === 'front' ? a - b : b - a));
            expect(mine).toEqual(sorted);
          });
        },
      ),
    );
  });

  test('the front takes the largest files first and the back the smallest; they meet in the middle', () => {
    const claim = new BigInt64Array(newQueueClaim());
    expect(claimIndex(claim, 5, 'front')).toBe(0);
    expect(claimIndex(claim, 5, 'back')).toBe(4);
    expect(claimIndex(claim, 5, 'back')).toBe(3);
    expect(claimIndex(claim, 5, 'front')).toBe(1);
    expect(claimIndex(claim, 5, 'back')).toBe(2);
    expect(claimIndex(claim, 5, 'front')).toBe(-1);
    expect(claimIndex(claim, 5, 'back')).toBe(-1);
  });

  test('an empty queue has nothing to claim', () => {
    const claim = new BigInt64Array(newQueueClaim());
    expect(claimIndex(claim, 0, 'front')).toBe(-1);
    expect(claimIndex(claim, 0, 'back')).toBe(-1);
  });

  test('the first worker takes the back (the main thread has the front); further workers alternate', () => {
    expect([0, 1, 2, 3].map(workerEnd)).toEqual(['back', 'front', 'back', 'front']);
  });
});
