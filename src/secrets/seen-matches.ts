const NO_RULES: readonly number[] = [];
/** Match lengths kept apart in a key (longer matches share one; a rule's matches stay far shorter). */
const LENGTHS = 65_536;
/**
 * How far a rule's next window can reach back into its previous one: a line window starts at most `LINE_REACH`
 * (1,024) before its keyword hit, which lies past the previous window's hit, whose window reaches at most a line
 * reach and the next line's beyond it; an `item` window (`line-windows.ts`) reaches 7 lines of at most a line reach
 * either way, 15 lines in all. Remembering more than needed only costs memory; less only costs judging a match twice,
 * which `resolveOverlaps` then reports once.
 */
const OVERLAP = 16_384;

/**
 * Which matches a scan has already judged, per rule, so that a match found again in an overlapping window is judged
 * once. A rule's windows never start before its previous one (each starts at or after the keyword hit that opened
 * it, and a hit opens a window only past the rule's previous one), and overlap it by less than `OVERLAP`: only the
 * matches near a window's end are remembered, and only those after the next window's start are kept. Memory is
 * bounded by what that stretch holds, not by the text (a 50 MB line of keyword-dense data once kept every rejected
 * match of the whole line).
 */
export class SeenMatches {
  /**
   * Only the rules that ran a window have an entry: a scan of a short text (one commit's lines of one file) triggers a
   * few of the hundreds of rules, and arrays sized by the rule count cost more to make than the scan itself. Made with
   * the first window: most such texts trigger none.
   */
  private rules: Map<number, RuleWindows> | undefined;

  /** The rules that ran a window, each once. */
  rulesRun(): Iterable<number> {
    return this.rules?.keys() ?? NO_RULES;
  }

  /** Rule `rule` is about to run in the window `[start, end)` (offsets of the whole text). */
  enterWindow(rule: number, start: number, end: number): void {
    this.rules ??= new Map();
    const windows = this.rules.get(rule);
    if (windows === undefined) {
      this.rules.set(rule, { keys: undefined, start, end, earlierEnd: Number.NEGATIVE_INFINITY });
      return;
    }
    if (windows.end > windows.earlierEnd) windows.earlierEnd = windows.end;
    windows.end = end;
    if (start <= windows.start) return;
    windows.start = start;
    const keys = windows.keys;
    if (keys === undefined || keys.size === 0) return;
    const below = start * LENGTHS;
    for (const key of keys) if (key < below) keys.delete(key);
  }

  /**
   * True the first time rule `rule` matches `length` characters at `offset` (inside the window it entered last); false
   * after. The same match found again in an overlapping window is the same secret judged the same way.
   */
  firstTime(rule: number, offset: number, length: number): boolean {
    const windows = this.rules?.get(rule);
    if (windows === undefined) return true;
    const met = offset < windows.earlierEnd;
    if (!met && offset < windows.end - OVERLAP) return true;
    const key = offset * LENGTHS + Math.min(length, LENGTHS - 1);
    windows.keys ??= new Set();
    if (windows.keys.has(key)) return false;
    windows.keys.add(key);
    return true;
  }
}

/** One rule's windows so far. */
interface RuleWindows {
  keys: Set<number> | undefined;
  /** Where its latest window starts and ends. */
  start: number;
  end: number;
  /** Where its earlier windows ended: a match starting there or later was not met before. */
  earlierEnd: number;
}
