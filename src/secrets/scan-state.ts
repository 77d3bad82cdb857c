import { forgetLastText } from './generic-gates.js';
import type { LineHits } from './line-windows.js';
import type { GateCheck } from './name-gate.js';
import type { PathFacts } from './path-facts.js';
import type { Accepting } from './prefilter.js';
import type { Found, Span } from './scan-results.js';
import { SeenMatches } from './seen-matches.js';
import type { FileSyntax } from './syntax.js';

// The scanner's per-text state, apart from the scanner itself (which holds what all texts share).

/** What one scan of a text carries from one window to the next. */
export interface ScanState {
  /** From the path, and for a file without an extension from its `#!` line, read once the text's start is held. */
  syntax: FileSyntax;
  readonly lockfile: boolean;
  readonly documentation: boolean;
  /** Per rule, the offset of the whole text up to which it has run (see `RuleProgressPool`). */
  readonly scannedUntil: Float64Array;
  /** The rules this path exempts: `scannedUntil` holds everything for them. */
  readonly exempt: readonly number[];
  /** The prefilter's accepting states that matter here: none whose keywords only `exempt` rules use. */
  readonly accepting: Accepting;
  /** The prefilter automaton's state. */
  state: number;
  readonly found: Found[];
  readonly seen: SeenMatches;
  readonly vetoed: Span[];
  /** The rejected candidates, collected only when the scan was asked to keep them. */
  readonly rejected: Found[] | null;
}

/**
 * A new text's scan state, from its path's facts and the rules' progress the scanner gives it. The gates' memory of
 * the last text goes with the last text.
 */
export function newScanState(
  facts: PathFacts,
  syntax: FileSyntax,
  shared: { scannedUntil: Float64Array; accepting: Accepting; keepRejected: boolean },
): ScanState {
  forgetLastText();
  return {
    syntax,
    lockfile: facts.lockfile,
    documentation: facts.documentation,
    scannedUntil: shared.scannedUntil,
    exempt: facts.exempt,
    accepting: shared.accepting,
    state: 0,
    found: [],
    seen: new SeenMatches(),
    vetoed: [],
    rejected: shared.keepRejected ? [] : null,
  };
}

/** What `advance` carries from one keyword hit to the next. */
export interface Hits extends LineHits {
  readonly scan: ScanState;
  /** The shared parse of what follows each hit, which rules' gates check before their own regex. */
  readonly gates: GateCheck;
}

/**
 * Characters a streamed text keeps behind the prefilter (more than any window reaches back: a line window
 * `LINE_REACH`, a block window 64), in whole lines.
 */
export const STREAM_BACK = 4096;
/**
 * The least a streamed text is scanned behind what has arrived: a line window reaches `LINE_REACH` past the hit and
 * the next line `LINE_REACH` more; the rest is room for a gate's look-ahead.
 */
export const STREAM_AHEAD = 65_536;
