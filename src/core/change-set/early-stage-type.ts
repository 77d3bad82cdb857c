import type { ProcessResult } from '../process.js';
import type { WorkTreeIndex } from './guess-repo.js';
import type { IndexFileTimes } from './second-blind-entries.js';

/**
 * A snapshot's `git add` started before the rest of the CLI loads (bin/tollgate.cjs, through fast-start.cjs): the
 * longest git of a first run then works while Node reads the bundle, the config and the policy. It is exactly the
 * `git add` the snapshot would start itself (same private folder, copy of the index, argv and environment); the
 * snapshot adopts it only when its own look at the repository names the same work tree and index, and drops it
 * otherwise (`withTempIndex`).
 */
export interface EarlyStage {
  /** The work tree and index it was started for (`guessRepo` of the current folder). */
  readonly where: WorkTreeIndex;
  /** The private folder that holds the temporary index. */
  readonly dir: string;
  /** The copy of the user's index `git add` started from, as read before git rewrote it (null: no index yet). */
  readonly copied: CopiedIndex | null;
  /** The `git add` itself. */
  readonly adding: Promise<ProcessResult>;
  /** Stops `git add` if it still runs (the snapshot was abandoned, or will never come). */
  stop(): void;
  /** Removes the folder once `git add` is done. Called once, by whoever holds the stage last. */
  close(): Promise<void>;
}

/** The index a snapshot's `git add` starts from: its bytes, and its file's times (git's racy-clean check reads them). */
export interface CopiedIndex {
  bytes: Buffer;
  times: IndexFileTimes;
}
