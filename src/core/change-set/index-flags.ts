/**
 * Reads a git index file (https://git-scm.com/docs/index-format) just far enough to tell whether `git ls-files -v`
 * is needed: whether any entry carries a flag that makes `git add` trust it without reading the file
 * (assume-unchanged, skip-worktree) or lies under tollgate's state folder. Pure.
 *
 * It only ever answers "nothing hidden" when it walked every entry of a plain index: an index it does not fully
 * understand (another version, a split index whose entries live in a shared file, a required extension, a truncated
 * or odd file) answers "look", and the caller lists the entries with git as before.
 */

const SIGNATURE = 0x44495243; // "DIRC"
const ASSUME_VALID = 0x8000;
const EXTENDED = 0x4000;
const SKIP_WORKTREE = 0x4000; // in the extended flags (version 3 and later)
/** The low 12 bits of the flags: the path's length, or all ones for a path at least that long. */
const NAME_LENGTH = 0x0fff;
/** ctime, mtime (seconds and nanoseconds each), dev, ino, mode, uid, gid, size: ten 32-bit fields. */
const STAT_BYTES = 40;

const HASH_BYTES: Record<string, number> = { sha1: 20, sha256: 32 };

/**
 * True when some entry of `index` is assume-unchanged or skip-worktree, or lies under `${stateDir}/`, or when the file
 * cannot be read with certainty; false only when every entry was seen and none is.
 */
export function indexMayHideEntries(index: Buffer, objectFormat: string, stateDir: string): boolean {
  const hashBytes = HASH_BYTES[objectFormat];
  if (hashBytes === undefined || index.length < 12 + hashBytes || index.readUInt32BE(0) !== SIGNATURE) return true;
  const version = index.readUInt32BE(4);
  if (version < 2 || version > 4) return true;
  const entries = index.readUInt32BE(8);
  const end = index.length - hashBytes; // the trailing checksum
  const prefix = Buffer.from(`${stateDir}/`);
  // Version 4 paths are the previous path less some bytes, plus a suffix: only how many leading bytes match the state
  // folder's prefix is carried from one to the next, so no path is ever built.
  let previousLength = 0;
  let previousMatch = 0;
  let at = 12;
  for (let entry = 0; entry < entries; entry += 1) {
    const flagsAt = at + STAT_BYTES + hashBytes;
    if (flagsAt + 2 > end) return true;
    const flags = (index[flagsAt]! << 8) | index[flagsAt + 1]!;
    if ((flags & ASSUME_VALID) !== 0) return true;
    let nameAt = flagsAt + 2;
    if ((flags & EXTENDED) !== 0) {
      if (version < 3 || nameAt + 2 > end) return true;
      if (((index[nameAt]! << 8) & SKIP_WORKTREE) !== 0) return true;
      nameAt += 2;
    }
    const nameLength = flags & NAME_LENGTH;
    if (version === 4) {
      const strip = readVarint(index, nameAt, end);
      if (strip === null || strip.value > previousLength) return true;
      const kept = previousLength - strip.value;
      const suffixAt = strip.next;
      // A long path's length is not in the flags: find its end.
      const nul = nameLength < NAME_LENGTH ? suffixAt + nameLength - kept : index.indexOf(0, suffixAt);
      if (nul < suffixAt || nul >= end || index[nul] !== 0) return true;
      let match = Math.min(previousMatch, kept);
      if (match === kept) match += matchingBytes(index, suffixAt, nul, prefix, match);
      if (match >= prefix.length) return true;
      previousLength = kept + (nul - suffixAt);
      previousMatch = match;
      at = nul + 1;
    } else {
      // A NUL-terminated path, padded with NULs to a multiple of eight bytes for the whole entry.
      const nul = nameLength < NAME_LENGTH ? nameAt + nameLength : index.indexOf(0, nameAt);
      if (nul < nameAt || nul >= end || index[nul] !== 0) return true;
      // The first byte alone settles almost every path (walked 20,000 times at a first run's start, in the interpreter).
      if (index[nameAt] === prefix[0] && matchingBytes(index, nameAt, nul, prefix, 0) >= prefix.length) return true;
      at += (nul - at + 8) & ~7;
    }
  }
  // Extensions: a 4-byte signature and a 32-bit size each. One whose signature starts with a lowercase letter is one
  // git must understand to read the index (`link`: the entries live in a shared index file; `sdir`: sparse folders).
  while (at + 8 <= end) {
    const first = index[at]!;
    if (first >= 0x61 && first <= 0x7a) return true;
    at += 8 + index.readUInt32BE(at + 4);
  }
  return at !== end;
}

/** How many bytes of `bytes[from, to)` equal `prefix` from its position `offset` on. */
function matchingBytes(bytes: Buffer, from: number, to: number, prefix: Buffer, offset: number): number {
  let count = 0;
  while (offset + count < prefix.length && from + count < to && bytes[from + count] === prefix[offset + count])
    count += 1;
  return count;
}

/** git's offset varint (varint.c): seven bits a byte, most significant first, each continuation adding one. */
export function readVarint(bytes: Buffer, at: number, end: number): { value: number; next: number } | null {
  if (at >= end) return null;
  let byte = bytes[at]!;
  let value = byte & 0x7f;
  let next = at + 1;
  while ((byte & 0x80) !== 0) {
    if (next >= end || value > 0xffffff) return null;
    byte = bytes[next]!;
    next += 1;
    value = (value + 1) * 128 + (byte & 0x7f);
  }
  return { value, next };
}
