/**
 * Finds many fixed strings in a text in one pass: every value is filed under a hash of its first `KEY` characters,
 * and a rolling hash of the text's next `KEY` characters picks the few values that can start at each position. Cost
 * is linear in the text whatever the number of values, and adding a value costs nothing more than filing it: a run
 * with 10,000 found secrets once spent most of its time building and running one alternation of all of them.
 *
 * Matches are what a regex alternation of the values sorted longest first gives with the `g` flag: leftmost first,
 * the longest value at that position, the search going on after its end.
 */
export const KEY = 8;
const BASE = 31;
/** BASE^(KEY-1) mod 2^32: what the character leaving the rolling window contributed. */
const LEAVING = (() => {
  let power = 1;
  for (let i = 1; i < KEY; i++) power = Math.imul(power, BASE);
  return power;
})();

export interface ValueMatch {
  start: number;
  end: number;
  value: string;
}

export class ValueMatcher {
  /** Values by the hash of their first KEY characters, longest first. */
  private readonly buckets = new Map<number, string[]>();
  private readonly values = new Set<string>();

  get size(): number {
    return this.values.size;
  }

  /** Values shorter than `KEY` are not filed (callers keep values of at least that length). */
  add(value: string): void {
    if (value.length < KEY || this.values.has(value)) return;
    this.values.add(value);
    const hash = hashOf(value, 0);
    const bucket = this.buckets.get(hash);
    if (bucket === undefined) {
      this.buckets.set(hash, [value]);
      return;
    }
    let at = 0;
    while (at < bucket.length && bucket[at]!.length >= value.length) at++;
    bucket.splice(at, 0, value);
  }

  /** Every non-overlapping occurrence, left to right. */
  find(text: string): ValueMatch[] {
    const found: ValueMatch[] = [];
    if (this.values.size === 0 || text.length < KEY) return found;
    let hash = hashOf(text, 0);
    let i = 0;
    for (;;) {
      const bucket = this.buckets.get(hash);
      const value = bucket === undefined ? undefined : bucket.find((candidate) => text.startsWith(candidate, i));
      if (value !== undefined) {
        found.push({ start: i, end: i + value.length, value });
        i += value.length;
        if (i + KEY > text.length) break;
        hash = hashOf(text, i);
        continue;
      }
      if (i + KEY >= text.length) break;
      hash = (Math.imul(hash - Math.imul(text.charCodeAt(i), LEAVING), BASE) + text.charCodeAt(i + KEY)) | 0;
      i++;
    }
    return found;
  }
}

function hashOf(text: string, from: number): number {
  let hash = 0;
  for (let i = from; i < from + KEY; i++) hash = (Math.imul(hash, BASE) + text.charCodeAt(i)) | 0;
  return hash;
}
