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
  const path = new PathBuilder();
  let at = 12;
  for (let entry = 0; entry < entries; entry += 1) {
    const flagsAt = at + STAT_BYTES + hashBytes;
    if (flagsAt + 2 > end) return true;
    const flags = index.readUInt16BE(flagsAt);
    if ((flags & ASSUME_VALID) !== 0) return true;
    let nameAt = flagsAt + 2;
    if ((flags & EXTENDED) !== 0) {
      if (version < 3 || nameAt + 2 > end) return true;
      if ((index.readUInt16BE(nameAt) & SKIP_WORKTREE) !== 0) return true;
      nameAt += 2;
    }
    if (version === 4) {
      // The path is the previous one less `strip` bytes, then a NUL-terminated suffix; no padding.
      const strip = readVarint(index, nameAt, end);
      if (strip === null) return true;
      const nul = index.indexOf(0, strip.next);
      if (nul === -1 || nul >= end || !path.replaceTail(strip.value, index, strip.next, nul)) return true;
      if (path.startsWith(prefix)) return true;
      at = nul + 1;
    } else {
      // A NUL-terminated path, padded with NULs to a multiple of eight bytes for the whole entry.
      const nul = index.indexOf(0, nameAt);
      if (nul === -1 || nul >= end) return true;
      if (
        nul - nameAt >= prefix.length &&
        index.compare(prefix, 0, prefix.length, nameAt, nameAt + prefix.length) === 0
      )
        return true;
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

/** git's offset varint (varint.c): seven bits a byte, most significant first, each continuation adding one. */
function readVarint(bytes: Buffer, at: number, end: number): { value: number; next: number } | null {
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

/** The current path of a version 4 index, rebuilt in place from the previous one. */
class PathBuilder {
  private bytes = Buffer.alloc(256);
  private length = 0;

  /** Drops `strip` bytes from the end, then appends `source[from, to)`; false when `strip` is longer than the path. */
  replaceTail(strip: number, source: Buffer, from: number, to: number): boolean {
    if (strip > this.length) return false;
    const kept = this.length - strip;
    const length = kept + (to - from);
    if (length > this.bytes.length) {
      const grown = Buffer.alloc(Math.max(length, this.bytes.length * 2));
      this.bytes.copy(grown, 0, 0, kept);
      this.bytes = grown;
    }
    source.copy(this.bytes, kept, from, to);
    this.length = length;
    return true;
  }

  startsWith(prefix: Buffer): boolean {
    return this.length >= prefix.length && this.bytes.compare(prefix, 0, prefix.length, 0, prefix.length) === 0;
  }
}
