/**
 * Per rule, the window it is due to run in, grown while keyword hits keep opening windows that overlap it. In
 * keyword-dense text (a JSON document with a credential-named key on every line) each line's window overlaps the
 * next one's, since a line window takes in the following line: run one by one, every line was searched twice by
 * every triggered rule and every match on it found, built and judged twice. Merged, each character is searched once
 * per rule. Merging only joins windows that overlap, so what is searched is exactly what the windows cover.
 */
export interface WindowRunner {
  runWindow(rule: number, start: number, end: number, cutShort: boolean): void;
}

/**
 * A merged window stops growing past this many characters (then the next one starts): matches judged once are
 * remembered only for the latest window (see `SeenMatches`), so memory stays bounded on a line of any length.
 */
const MAX_MERGED = 1 << 20;

/**
 * An object with a method, not a closure: a closure made per file is a new call target each file, and V8 threw away
 * the compiled code of every caller that had inlined the last one ("wrong call target", in every isolate).
 */
const NO_RUN: WindowRunner = { runWindow() {} };

/**
 * Made once per scanner and lent to one `advance` at a time (every window is run and the state cleared by `flushAll`
 * at its end): arrays sized by the rule count cost more to make than a short text costs to scan.
 */
export class PendingWindows {
  private readonly start: Float64Array;
  private readonly end: Float64Array;
  /** Whether the pending window ends inside its line, cutting a match that runs into its end (long lines). */
  private readonly cut: Uint8Array;
  private readonly due: number[] = [];
  /** What runs a window, for the `advance` that holds this now. */
  runner: WindowRunner = NO_RUN;

  constructor(rules: number) {
    this.start = new Float64Array(rules).fill(-1);
    this.end = new Float64Array(rules).fill(-1);
    this.cut = new Uint8Array(rules);
  }

  /** Rule `rule` is to run in `[start, end)`: joined to its pending window when they overlap, else after it. */
  add(rule: number, start: number, end: number, cutShort = false): void {
    const pendingEnd = this.end[rule]!;
    if (pendingEnd !== -1 && start < pendingEnd && end - this.start[rule]! <= MAX_MERGED) {
      if (end > pendingEnd) {
        this.end[rule] = end;
        this.cut[rule] = cutShort ? 1 : 0;
      }
      return;
    }
    this.flush(rule);
    if (this.start[rule] === -1) this.due.push(rule);
    this.start[rule] = start;
    this.end[rule] = end;
    this.cut[rule] = cutShort ? 1 : 0;
  }

  /** Runs rule `rule`'s pending window now (before any other window of that rule runs). */
  flush(rule: number): void {
    const start = this.start[rule]!;
    if (start === -1 || this.end[rule] === -1) return;
    const end = this.end[rule]!;
    this.end[rule] = -1;
    this.runner.runWindow(rule, start, end, this.cut[rule] === 1);
  }

  /** Runs every pending window, and lets go of `runner` (which holds the text). */
  flushAll(): void {
    for (const rule of this.due) {
      this.flush(rule);
      this.start[rule] = -1;
    }
    this.due.length = 0;
    this.runner = NO_RUN;
  }
}
