/**
 * What the process that starts a history scan wants done once the history's reading begins, after the start-up:
 * bin/tollgate.cjs keeps V8's young generation from growing from then on (docs/benchmarks.md, "`scan --history`'s
 * start-up", session 30). Kept in this module, not passed down, because the scan command reaches the history source
 * through the scan's own layers; the gate's history scans set nothing.
 */
let pending: (() => void) | undefined;

/** Sets (or, with undefined, clears) what runs once, when a history's first log pass is about to start. */
export function whenHistoryReadingStarts(callback: (() => void) | undefined): void {
  pending = callback;
}

/** Runs what was set, once: later histories in the same process find nothing to run. */
export function historyReadingStarts(): void {
  const callback = pending;
  pending = undefined;
  callback?.();
}
