import { createHash } from 'node:crypto';
import { compareText } from '../text-order.js';

export interface FingerprintInput {
  /** The base commit, or null in a repository without commits. */
  baseCommit: string | null;
  /**
   * Every path whose entry differs between the base and the whole working tree (as `git add -A` stages it into the
   * temporary index), with the new mode and object id; mode 0 for a deletion. Ignored paths count too: an ignored
   * lockfile still changes what the project's checks run against.
   */
  changes: ReadonlyArray<{ path: string; mode: number; id: string }>;
  /** Config `ignore` patterns, in order: the same tree seen through other patterns is another change set. */
  ignore: readonly string[];
}

/**
 * Stable id of a change set. Given the base, the list of changed entries determines the working tree's tree id and
 * the other way round, so this equals hashing the tree id that `git write-tree` would print, without paying for the
 * tree objects on every run. Versioned so that a change of recipe never matches results stored by an older one.
 */
export function fingerprintOf(input: FingerprintInput): string {
  const hash = createHash('sha256')
    .update('tollgate-change-set-v2\0')
    .update(`base ${input.baseCommit ?? 'none'}\0`)
    .update(`ignore ${JSON.stringify(input.ignore)}\0`);
  const changes = [...input.changes].sort((a, b) => compareText(a.path, b.path));
  for (const change of changes) hash.update(`${change.mode.toString(8)} ${change.id} ${change.path}\0`);
  return hash.digest('hex');
}
