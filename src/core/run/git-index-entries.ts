import { isAscii } from 'node:buffer';
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

/** The entries of a SHA-1 index of version 2, 3 or 4; undefined for anything else (see above). */
export function readIndexEntries(index: Buffer): IndexEntry[] | undefined {
  if (index.length < 12 + HASH_BYTES || index.readUInt32BE(0) !== SIGNATURE) return undefined;
  const version = index.readUInt32BE(4);
  if (version < 2 || version > 4) return undefined;
  const count = index.readUInt32BE(8);
  const end = index.length - HASH_BYTES;
  const entries: IndexEntry[] = [];
  let previous: Buffer = Buffer.alloc(0);
  let at = 12;
  for (let entry = 0; entry < count; entry += 1) {
    const flagsAt = at + STAT_FIELDS * 4 + HASH_BYTES;
    if (flagsAt + 2 > end) return undefined;
    const stat: number[] = [];
    for (let field = 0; field < STAT_FIELDS; field += 1) stat.push(index.readUInt32BE(at + field * 4));
    const flags = index.readUInt16BE(flagsAt);
    if ((flags & (ASSUME_VALID | STAGE_MASK)) !== 0 || stat[6] === GITLINK) return undefined;
    let nameAt = flagsAt + 2;
    // Extended flags hold skip-worktree and intent-to-add: an entry with either is not decided by its stat data.
    if ((flags & EXTENDED) !== 0) return undefined;
    const nameLength = flags & NAME_LENGTH;
    let name: Buffer;
    if (version === 4) {
      const strip = readVarint(index, nameAt, end);
      if (strip === null || strip.value > previous.length) return undefined;
      nameAt = strip.next;
      const nul = index.indexOf(0, nameAt);
      if (nul < nameAt || nul >= end) return undefined;
      name = Buffer.concat([previous.subarray(0, previous.length - strip.value), index.subarray(nameAt, nul)]);
      at = nul + 1;
    } else {
      const nul = nameLength < NAME_LENGTH ? nameAt + nameLength : index.indexOf(0, nameAt);
      if (nul < nameAt || nul >= end || index[nul] !== 0) return undefined;
      name = index.subarray(nameAt, nul);
      at += (nul - at + 8) & ~7;
    }
    if (nameLength < NAME_LENGTH && name.length !== nameLength) return undefined;
    previous = name;
    const path = name.toString('utf8');
    // A path that is not UTF-8 would name another file once decoded.
    if (!isAscii(name) && !Buffer.from(path, 'utf8').equals(name)) return undefined;
    entries.push({ path, stat });
  }
  // Extensions: one whose signature starts with a lowercase letter is one git must understand to read the index.
  while (at + 8 <= end) {
    const first = index[at]!;
    if (first >= 0x61 && first <= 0x7a) return undefined;
    at += 8 + index.readUInt32BE(at + 4);
  }
  return at === end ? entries : undefined;
}
