/**
 * Walks the entries of a git index file (https://git-scm.com/docs/index-format): versions 2 to 4, either object
 * format. Pure. It only ever says "walked" for a file it understood whole: another version, a truncated or odd file,
 * or an extension git must understand to read the index (a split index, whose entries live in a shared file; sparse
 * folders) answers false, and so does a visitor that stops the walk.
 */

const SIGNATURE = 0x44495243; // "DIRC"
/** The flag that says two bytes of extended flags (skip-worktree, intent-to-add) follow the flags. */
export const EXTENDED = 0x4000;
export const ASSUME_VALID = 0x8000;
export const STAGE_MASK = 0x3000;
/** The low 12 bits of the flags: the path's length, or all ones for a path at least that long. */
const NAME_LENGTH = 0x0fff;
export const GITLINK = 0o160000;
/** ctime, mtime (seconds and nanoseconds each), dev, ino, mode, uid, gid, size: ten 32-bit fields. */
const STAT_FIELDS = 10;

export const INDEX_HASH_BYTES: Readonly<Record<string, number>> = { sha1: 20, sha256: 32 };

/**
 * One entry as the index holds it. The walk passes the same object each time, updated in place (no allocation per
 * entry: a first run walks 20,000 of them once, in the interpreter): read what you need before the next call.
 */
export interface IndexRecord {
  /** Where the entry starts: its ten 32-bit stat fields (`statOf`). */
  at: number;
  /** Where the entry's object id starts. */
  oidAt: number;
  /** The 16-bit flags (assume-valid, extended, stage, name length). */
  flags: number;
  /** The extended flags (skip-worktree, intent-to-add), 0 when there are none. */
  extended: number;
  /** The path's bytes: `index[nameStart, nameEnd)`, or in version 4 `built[nameStart, nameEnd)`. */
  nameStart: number;
  nameEnd: number;
  built: Buffer | null;
}

/** The entry's path bytes (a view, or the version 4 path built from the previous one). */
export function nameOf(index: Buffer, entry: IndexRecord): Buffer {
  return (entry.built ?? index).subarray(entry.nameStart, entry.nameEnd);
}

/**
 * ctimeSec, ctimeNsec, mtimeSec, mtimeNsec, dev, ino, mode, uid, gid, size (each truncated to 32 bits): one array made
 * at its size, each field read from the bytes (a walk runs once per process, in V8's interpreter, where an array grown
 * field by field and `Buffer` methods cost several times this).
 */
export function statOf(index: Buffer, at: number): number[] {
  return [
    uint32(index, at),
    uint32(index, at + 4),
    uint32(index, at + 8),
    uint32(index, at + 12),
    uint32(index, at + 16),
    uint32(index, at + 20),
    uint32(index, at + 24),
    uint32(index, at + 28),
    uint32(index, at + 32),
    uint32(index, at + 36),
  ];
}

/** The 32-bit big-endian number at `at` (the caller checked that its four bytes are there). */
export function uint32(bytes: Buffer, at: number): number {
  return bytes[at]! * 0x1000000 + ((bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!);
}

/**
 * Calls `visit` with each entry, in the index's order, until it answers false. True when every entry was visited and
 * the rest of the file is extensions git does not require (see above); false otherwise.
 */
export function walkIndexEntries(index: Buffer, hashBytes: number, visit: (entry: IndexRecord) => boolean): boolean {
  if (index.length < 12 + hashBytes || uint32(index, 0) !== SIGNATURE) return false;
  const version = uint32(index, 4);
  if (version < 2 || version > 4) return false;
  const count = uint32(index, 8);
  const end = index.length - hashBytes; // the trailing checksum
  const record: IndexRecord = { at: 12, oidAt: 0, flags: 0, extended: 0, nameStart: 0, nameEnd: 0, built: null };
  let previous: Buffer = Buffer.alloc(0);
  let at = 12;
  for (let entry = 0; entry < count; entry += 1) {
    const oidAt = at + STAT_FIELDS * 4;
    const flagsAt = oidAt + hashBytes;
    if (flagsAt + 2 > end) return false;
    const flags = (index[flagsAt]! << 8) | index[flagsAt + 1]!;
    let nameAt = flagsAt + 2;
    let extended = 0;
    if ((flags & EXTENDED) !== 0) {
      if (version < 3 || nameAt + 2 > end) return false;
      extended = (index[nameAt]! << 8) | index[nameAt + 1]!;
      nameAt += 2;
    }
    const nameLength = flags & NAME_LENGTH;
    record.at = at;
    record.oidAt = oidAt;
    record.flags = flags;
    record.extended = extended;
    if (version === 4) {
      const strip = readVarint(index, nameAt, end);
      if (strip === null || strip.value > previous.length) return false;
      nameAt = strip.next;
      const nul = index.indexOf(0, nameAt);
      if (nul < nameAt || nul >= end) return false;
      previous = Buffer.concat([previous.subarray(0, previous.length - strip.value), index.subarray(nameAt, nul)]);
      if (nameLength < NAME_LENGTH && previous.length !== nameLength) return false;
      record.built = previous;
      record.nameStart = 0;
      record.nameEnd = previous.length;
      at = nul + 1;
    } else {
      // A NUL-terminated path, padded with NULs to a multiple of eight bytes for the whole entry.
      const nul = nameLength < NAME_LENGTH ? nameAt + nameLength : index.indexOf(0, nameAt);
      if (nul < nameAt || nul >= end || index[nul] !== 0) return false;
      record.nameStart = nameAt;
      record.nameEnd = nul;
      at += (nul - at + 8) & ~7;
    }
    if (!visit(record)) return false;
  }
  // Extensions: a 4-byte signature and a 32-bit size each. One whose signature starts with a lowercase letter is one
  // git must understand to read the index.
  while (at + 8 <= end) {
    const first = index[at]!;
    if (first >= 0x61 && first <= 0x7a) return false;
    at += 8 + uint32(index, at + 4);
  }
  return at === end;
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
