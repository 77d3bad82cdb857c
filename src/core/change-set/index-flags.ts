import { ASSUME_VALID, INDEX_HASH_BYTES, type IndexRecord, walkIndexEntries } from './index-entries.js';

/**
 * Reads a git index file (https://git-scm.com/docs/index-format) just far enough to tell whether `git ls-files -v`
 * is needed: whether any entry carries a flag that makes `git add` trust it without reading the file
 * (assume-unchanged, skip-worktree) or lies under tollgate's state folder. Pure.
 *
 * It only ever answers "nothing hidden" when it walked every entry of a plain index: an index it does not fully
 * understand (another version, a split index whose entries live in a shared file, a required extension, a truncated
 * or odd file) answers "look", and the caller lists the entries with git as before.
 */

const SKIP_WORKTREE = 0x4000; // in the extended flags (version 3 and later)

/**
 * True when some entry of `index` is assume-unchanged or skip-worktree, or lies under `${stateDir}/`, or when the file
 * cannot be read with certainty; false only when every entry was seen and none is.
 */
export function indexMayHideEntries(index: Buffer, objectFormat: string, stateDir: string): boolean {
  const hashBytes = INDEX_HASH_BYTES[objectFormat];
  if (hashBytes === undefined) return true;
  const prefix = stateDirPrefix(stateDir);
  // walkIndexEntries stops (false) at the first entry that hides, as at a file it does not understand.
  return !walkIndexEntries(index, hashBytes, (entry) => !entryHides(index, entry, prefix));
}

/** The bytes every path under `stateDir` starts with (`entryHides`). */
export function stateDirPrefix(stateDir: string): Buffer {
  return Buffer.from(`${stateDir}/`);
}

/** True when the entry is assume-unchanged or skip-worktree, or its path starts with `prefix` (`stateDirPrefix`). */
export function entryHides(index: Buffer, entry: IndexRecord, prefix: Buffer): boolean {
  if ((entry.flags & ASSUME_VALID) !== 0 || (entry.extended & SKIP_WORKTREE) !== 0) return true;
  const names = entry.built ?? index;
  const start = entry.nameStart;
  // The first byte alone settles almost every path (walked 20,000 times at a first run's start, in the interpreter).
  return names[start] === prefix[0] && startsWith(names, start, entry.nameEnd, prefix);
}

/** True when `bytes[from, to)` starts with `prefix`. */
function startsWith(bytes: Buffer, from: number, to: number, prefix: Buffer): boolean {
  if (to - from < prefix.length) return false;
  for (let offset = 0; offset < prefix.length; offset += 1) if (bytes[from + offset] !== prefix[offset]) return false;
  return true;
}
