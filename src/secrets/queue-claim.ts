/**
 * The claims of one shared scan queue (files largest first), taken from both of its ends. The main thread takes the
 * largest files from the front and the first worker the smallest from the back (further workers alternate), so while
 * two threads scan at once one streams a few large files through its one reused buffer and the other opens and reads
 * many small ones, rather than both streaming large files through memory at the same time; the claims meet where the
 * files are about a megabyte on the npm corpus, so neither thread ends long after the other. One 64-bit counter holds
 * both ends (front claims in its low 32 bits, back claims in its high ones), so each claim is one atomic add and every
 * index is claimed exactly once, whatever the threads and their order.
 */
export type QueueEnd = 'front' | 'back';

const FRONT = 1n;
const BACK = 1n << 32n;

/** A fresh counter for a queue: nothing claimed from either end. */
export function newQueueClaim(): SharedArrayBuffer {
  return new SharedArrayBuffer(BigInt64Array.BYTES_PER_ELEMENT);
}

/** The index in a queue of `length` files that this claim takes from `end`, or -1 once every file is claimed. */
export function claimIndex(claim: BigInt64Array, length: number, end: QueueEnd): number {
  const before = Atomics.add(claim, 0, end === 'front' ? FRONT : BACK);
  const front = Number(BigInt.asUintN(32, before));
  const back = Number(before >> 32n);
  if (front + back >= length) return -1;
  return end === 'front' ? front : length - 1 - back;
}

/** The end the `index`th worker (from 0) claims from: the main thread has the front, so the first worker the back. */
export function workerEnd(index: number): QueueEnd {
  return index % 2 === 0 ? 'back' : 'front';
}
