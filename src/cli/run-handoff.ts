import type { EarlyStage } from '../core/change-set/early-stage-type.js';
import type { Stamp } from '../core/run/tree-stamp.js';
import type { StopHandoff } from '../integrations/hooks/stop-entry.js';

/**
 * What a small bundle learnt before handing its command to the whole CLI (bin/tollgate.cjs): the stop hook's payload
 * and deadline, or the stamp the no-change run's fast path took of the tree before it found it could not answer.
 */
export interface CliHandoff extends StopHandoff {
  /** Set for a plain `tollgate run` (unchanged-run.ts). */
  run?: PlainRunHandoff;
  /** Set for any other `tollgate run`: its snapshot's `git add`, begun before the CLI loaded (early-stage.ts). */
  early?: EarlyStage;
  /**
   * Set for every `tollgate run`: marks the code cache bin/tollgate.cjs writes at exit as a first run's (see
   * `markCodeCacheComplete`).
   */
  codeCacheComplete?: () => void;
}

export interface PlainRunHandoff {
  /**
   * Taken before the run, when an earlier plain run left a saved report to compare with: the full path saves it with
   * its report when it finds nothing changed. Null when there was none, so a tree that keeps changing pays no stamp.
   */
  stamp: Stamp | null;
}

// Held here between runCli and `tollgate run`'s action: commander sits between them and passes flags only.
let handed: PlainRunHandoff | undefined;

export function handPlainRun(run: PlainRunHandoff | undefined): void {
  handed = run;
}

/** What the small bundle handed over for this process's plain `tollgate run`, once; undefined for any other run. */
export function takePlainRun(): PlainRunHandoff | undefined {
  const run = handed;
  handed = undefined;
  return run;
}

let earlyStage: EarlyStage | undefined;

export function handEarlyStage(stage: EarlyStage | undefined): void {
  earlyStage = stage;
}

/** The snapshot's `git add` bin/tollgate.cjs began for this process's `tollgate run`, once; undefined when none was. */
export function takeEarlyStage(): EarlyStage | undefined {
  const stage = earlyStage;
  earlyStage = undefined;
  return stage;
}

let codeCacheComplete: (() => void) | undefined;

export function handCodeCacheComplete(mark: (() => void) | undefined): void {
  codeCacheComplete = mark;
}

/**
 * Says that this run examined a change set with its validators, so the code cache bin/tollgate.cjs writes at exit holds
 * what a first run compiles. A cache written by a run that did not (nothing changed, every validator off, a config
 * error) lacks the scan, the checks and the report, which every first run from it compiled again; bin/tollgate.cjs
 * replaces such a cache once, at the exit of a run that did.
 */
export function markCodeCacheComplete(): void {
  codeCacheComplete?.();
  codeCacheComplete = undefined;
}
