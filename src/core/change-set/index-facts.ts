import { INDEX_HASH_BYTES, walkIndexEntries } from './index-entries.js';
import { entryHides, stateDirPrefix } from './index-flags.js';
import { type IndexFileTimes, type SecondBlindEntry, secondBlindFinder } from './second-blind-entries.js';

/**
 * What the snapshot and a tree stamp both need from an index, in one walk of it (a first run's copy holds 20,000
 * entries, walked once in the interpreter): whether an entry may hide from `git add` and `git status` (index-flags.ts),
 * and the entries git's stat check is blind to (second-blind-entries.ts).
 */
export interface IndexFacts {
  /** True when an entry is flagged or under the state folder, or the index was not understood whole. */
  mayHide: boolean;
  /** Undefined when the index was not understood whole. */
  blind: SecondBlindEntry[] | undefined;
}

export function readIndexFacts(
  index: Buffer,
  objectFormat: string,
  root: string,
  stateDir: string,
  times?: IndexFileTimes,
): IndexFacts {
  const hashBytes = INDEX_HASH_BYTES[objectFormat];
  if (hashBytes === undefined) return { mayHide: true, blind: undefined };
  const prefix = stateDirPrefix(stateDir);
  const finder = secondBlindFinder(index, hashBytes, root, times);
  let hides = false;
  const whole = walkIndexEntries(index, hashBytes, (entry) => {
    if (!hides) hides = entryHides(index, entry, prefix);
    return finder.visit(entry);
  });
  return whole ? { mayHide: hides, blind: finder.entries } : { mayHide: true, blind: undefined };
}
