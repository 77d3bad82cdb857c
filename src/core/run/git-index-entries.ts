import { readVarint } from '../change-set/index-flags.js';

/**
 * Reads a git index file (https://git-scm.com/docs/index-format) into its entries' paths and stat data: the evidence
 * git itself uses to decide that a tracked file is unchanged without reading it. Pure. Undefined for anything it does
 * not fully understand or that git would not decide from stat data alone: another version, an entry in a merge
 * stage, an entry flagged assume-unchanged, skip-worktree or intent-to-add, a gitlink (a submodule's status is its own
 * repository's), an extension git must understand (split index, sparse folders), a truncated or odd file.
 */

const SIGNATURE = 0x44495243; // "DIRC"
const ASSUME_VALID = 0x8000;
const EXTENDED = 0x4000;
const STAGE_MASK = 0x3000;
const NAME_LENGTH = 0x0fff;
const GITLINK = 0o160000;
/** ctime, mtime (seconds and nanoseconds each), dev, ino, mode, uid, gid, size: ten 32-bit fields. */
const STAT_FIELDS = 10;
const HASH_BYTES = 20;

/** One entry: its path (bytes as UTF-8) and git's ten 32-bit stat fields, in the index's order. */
export interface IndexEntry {
  path: string;
  /** ctimeSec, ctimeNsec, mtimeSec, mtimeNsec, dev, ino, mode, uid, gid, size (each truncated to 32 bits). */
  stat: number[];
}

/**
 * The entries of a SHA-1 index of version 2, 3 or 4; undefined for anything else (see above). It runs once per
 * process, in V8's interpreter, on up to MAX_TRACKED entries (stamp-evidence.ts): so each field is read from the bytes
 * here rather than through `Buffer` methods, and a name is decoded straight from the index, without a `Buffer` view of
 * it (a view, a stat array grown field by field and a number object per field came to about 1.2 kB of the young
 * generation and 15 µs per entry in a fresh process).
 */
export function readIndexEntries(index: Buffer): IndexEntry[] | undefined {
  if (index.length < 12 + HASH_BYTES || uint32(index, 0) !== SIGNATURE) return undefined;
  const version = uint32(index, 4);
  if (version < 2 || version > 4) return undefined;
  const count = uint32(index, 8);
  const end = index.length - HASH_BYTES;
  const entries: IndexEntry[] = [];
  let previous: Buffer = Buffer.alloc(0);
  let at = 12;
  for (let entry = 0; entry < count; entry += 1) {
    const flagsAt = at + STAT_FIELDS * 4 + HASH_BYTES;
    if (flagsAt + 2 > end) return undefined;
    const stat = statFields(index, at);
    const flags = (index[flagsAt]! << 8) | index[flagsAt + 1]!;
    if ((flags & (ASSUME_VALID | STAGE_MASK)) !== 0 || stat[6] === GITLINK) return undefined;
    let nameAt = flagsAt + 2;
    // Extended flags hold skip-worktree and intent-to-add: an entry with either is not decided by its stat data.
    if ((flags & EXTENDED) !== 0) return undefined;
    const nameLength = flags & NAME_LENGTH;
    let path: string;
    if (version === 4) {
      const strip = readVarint(index, nameAt, end);
      if (strip === null || strip.value > previous.length) return undefined;
      nameAt = strip.next;
      const nul = index.indexOf(0, nameAt);
      if (nul < nameAt || nul >= end) return undefined;
      const name = Buffer.concat([previous.subarray(0, previous.length - strip.value), index.subarray(nameAt, nul)]);
      at = nul + 1;
      if (nameLength < NAME_LENGTH && name.length !== nameLength) return undefined;
      previous = name;
      path = name.toString('utf8');
      if (!isAsciiText(path) && !Buffer.from(path, 'utf8').equals(name)) return undefined;
    } else {
      const nul = nameLength < NAME_LENGTH ? nameAt + nameLength : index.indexOf(0, nameAt);
      if (nul < nameAt || nul >= end || index[nul] !== 0) return undefined;
      path = index.toString('utf8', nameAt, nul);
      // A path that is not UTF-8 would name another file once decoded.
      if (!isAsciiText(path) && !Buffer.from(path, 'utf8').equals(index.subarray(nameAt, nul))) return undefined;
      at += (nul - at + 8) & ~7;
    }
    entries.push({ path, stat });
  }
  // Extensions: one whose signature starts with a lowercase letter is one git must understand to read the index.
  while (at + 8 <= end) {
    const first = index[at]!;
    if (first >= 0x61 && first <= 0x7a) return undefined;
    at += 8 + uint32(index, at + 4);
  }
  return at === end ? entries : undefined;
}

/** The 32-bit big-endian number at `at` (the caller checked that its four bytes are there). */
function uint32(bytes: Buffer, at: number): number {
  return bytes[at]! * 0x1000000 + ((bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!);
}

/** An entry's ten stat fields, in one array made at its size. */
function statFields(bytes: Buffer, at: number): number[] {
  return [
    uint32(bytes, at),
    uint32(bytes, at + 4),
    uint32(bytes, at + 8),
    uint32(bytes, at + 12),
    uint32(bytes, at + 16),
    uint32(bytes, at + 20),
    uint32(bytes, at + 24),
    uint32(bytes, at + 28),
    uint32(bytes, at + 32),
    uint32(bytes, at + 36),
  ];
}

/**
 * True when `text`, decoded from UTF-8, came from ASCII bytes alone: each ASCII byte decodes to itself, and any other
 * byte to a character of U+0080 or above (a code point of its own, or U+FFFD where the bytes are not UTF-8).
 */
function isAsciiText(text: string): boolean {
  return !NON_ASCII.test(text);
}

const NON_ASCII = /[\u0080-\uffff]/;
