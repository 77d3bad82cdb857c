/**
 * Overlap questions about many spans in O(log n) each, so that a file with tens of thousands of matches (a leaked
 * dump, a generated fixture, keyword-dense data) costs O(n log n) rather than one comparison per pair.
 */

export interface Span {
  start: number;
  end: number;
}

/**
 * Spans added one at a time, asked whether any added span overlaps a given one (`a.start < b.end && b.start < a.end`).
 * Every span that may be added is known up front: they index a Fenwick tree keeping, per prefix of starts, the
 * largest end added. A span overlaps `[start, end)` exactly when the largest end among added spans starting before
 * `end` lies past `start`.
 */
export class GrowingSpanSet {
  private readonly starts: Float64Array;
  private readonly maxEnd: Float64Array;

  constructor(spans: readonly Span[]) {
    // Repeated starts need no removing: a span is added at the first of equal starts, and prefixes take all of them.
    this.starts = new Float64Array(spans.length);
    for (let i = 0; i < spans.length; i++) this.starts[i] = spans[i]!.start;
    this.starts.sort();
    this.maxEnd = new Float64Array(this.starts.length + 1).fill(Number.NEGATIVE_INFINITY);
  }

  /** `span.start` must be the start of a span given to the constructor. */
  add(span: Span): void {
    for (let i = countBelow(this.starts, span.start) + 1; i < this.maxEnd.length; i += i & -i) {
      if (this.maxEnd[i]! < span.end) this.maxEnd[i] = span.end;
    }
  }

  overlaps(span: Span): boolean {
    let max = Number.NEGATIVE_INFINITY;
    for (let i = countBelow(this.starts, span.end); i > 0; i -= i & -i)
      if (this.maxEnd[i]! > max) max = this.maxEnd[i]!;
    return max > span.start;
  }
}

/** A fixed set of spans, asked whether any overlaps a given one: sorted by start, with the running largest end. */
export function fixedSpanSet(spans: readonly Span[]): (span: Span) => boolean {
  if (spans.length === 0) return () => false;
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const starts = Float64Array.from(sorted, (span) => span.start);
  const runningMaxEnd = new Float64Array(sorted.length);
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < sorted.length; i++) {
    if (sorted[i]!.end > max) max = sorted[i]!.end;
    runningMaxEnd[i] = max;
  }
  return (span) => {
    const before = countBelow(starts, span.end);
    return before > 0 && runningMaxEnd[before - 1]! > span.start;
  };
}

/** How many of the sorted `values` are below `limit`. */
function countBelow(values: Float64Array, limit: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (values[mid]! < limit) low = mid + 1;
    else high = mid;
  }
  return low;
}
