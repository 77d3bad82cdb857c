/** Match lengths kept apart in a key (longer matches share one; a rule's matches stay far shorter). */
const LENGTHS = 65_536;
/**
 * How far a rule's next window can reach back into its previous one: a line window starts at most `LINE_REACH`
 * (1,024) before its keyword hit, which lies past the previous window's hit, whose window reaches at most a line
 * reach and the next line's beyond it. Remembering more than needed only costs memory; less only costs judging a
 * match twice, which `resolveOverlaps` then reports once.
 */
const OVERLAP = 8192;

/**
 * Which matches a scan has already judged, per rule, so that a match found again in an overlapping window is judged
 * once. A rule's windows never start before its previous one (each starts at or after the keyword hit that opened
 * it, and a hit opens a window only past the rule's previous one), and overlap it by less than `OVERLAP`: only the
 * matches near a window's end are remembered, and only those after the next window's start are kept. Memory is
 * bounded by what that stretch holds, not by the text (a 50 MB line of keyword-dense data once kept every rejected
 * match of the whole line).
 */
export class SeenMatches {
  private readonly keys: Array<Set<number> | undefined>;
  private readonly windowStart: Float64Array;
  private readonly windowEnd: Float64Array;
  /** Where this rule's earlier windows ended: a match starting there or later was not met before. */
  private readonly earlierEnd: Float64Array;

  constructor(rules: number) {
    this.keys = new Array(rules);
    this.windowStart = new Float64Array(rules).fill(Number.NEGATIVE_INFINITY);
    this.windowEnd = new Float64Array(rules).fill(Number.NEGATIVE_INFINITY);
    this.earlierEnd = new Float64Array(rules).fill(Number.NEGATIVE_INFINITY);
  }

  /** Rule `rule` is about to run in the window `[start, end)` (offsets of the whole text). */
  enterWindow(rule: number, start: number, end: number): void {
    if (this.windowEnd[rule]! > this.earlierEnd[rule]!) this.earlierEnd[rule] = this.windowEnd[rule]!;
    this.windowEnd[rule] = end;
    if (start <= this.windowStart[rule]!) return;
    this.windowStart[rule] = start;
    const keys = this.keys[rule];
    if (keys === undefined || keys.size === 0) return;
    const below = start * LENGTHS;
    for (const key of keys) if (key < below) keys.delete(key);
  }

  /**
   * True the first time rule `rule` matches `length` characters at `offset`; false after. The same match found again
   * in an overlapping window is the same secret judged the same way.
   */
  firstTime(rule: number, offset: number, length: number): boolean {
    const met = offset < this.earlierEnd[rule]!;
    if (!met && offset < this.windowEnd[rule]! - OVERLAP) return true;
    const key = offset * LENGTHS + Math.min(length, LENGTHS - 1);
    let keys = this.keys[rule];
    if (keys === undefined) {
      keys = new Set();
      this.keys[rule] = keys;
    }
    if (keys.has(key)) return false;
    keys.add(key);
    return true;
  }
}
