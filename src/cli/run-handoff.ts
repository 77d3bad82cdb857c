import type { Stamp } from '../core/run/tree-stamp.js';
import type { StopHandoff } from '../integrations/hooks/stop-entry.js';

/**
 * What a small bundle learnt before handing its command to the whole CLI (bin/tollgate.cjs): the stop hook's payload
 * and deadline, or the stamp the no-change run's fast path took of the tree before it found it could not answer.
 */
export interface CliHandoff extends StopHandoff {
  /** Taken before the run: the full path saves it with its report when it finds nothing changed (unchanged-run.ts). */
  runStamp?: Stamp;
}

// Held here between runCli and `tollgate run`'s action: commander sits between them and passes flags only.
let handedStamp: Stamp | undefined;

export function handRunStamp(stamp: Stamp | undefined): void {
  handedStamp = stamp;
}

/** The stamp handed over for this process's `tollgate run`, once. */
export function takeRunStamp(): Stamp | undefined {
  const stamp = handedStamp;
  handedStamp = undefined;
  return stamp;
}
