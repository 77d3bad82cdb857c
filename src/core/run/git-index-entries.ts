import {
  ASSUME_VALID,
  EXTENDED,
  GITLINK,
  INDEX_HASH_BYTES,
  nameOf,
  STAGE_MASK,
  statOf,
  walkIndexEntries,
} from '../change-set/index-entries.js';

/**
 * Reads a git index file (https://git-scm.com/docs/index-format) into its entries' paths and stat data: the evidence
 * git itself uses to decide that a tracked file is unchanged without reading it. Pure. Undefined for anything it does
 * not fully understand or that git would not decide from stat data alone: another version, an entry in a merge
 * stage, an entry flagged assume-unchanged, skip-worktree or intent-to-add, a gitlink (a submodule's status is its own
 * repository's), an extension git must understand (split index, sparse folders), a truncated or odd file.
 */

/** One entry: its path (bytes as UTF-8) and git's ten 32-bit stat fields, in the index's order. */
export interface IndexEntry {
  path: string;
  /** ctimeSec, ctimeNsec, mtimeSec, mtimeNsec, dev, ino, mode, uid, gid, size (each truncated to 32 bits). */
  stat: number[];
}

/** The entries of a SHA-1 index of version 2, 3 or 4; undefined for anything else (see above). */
export function readIndexEntries(index: Buffer): IndexEntry[] | undefined {
  const entries: IndexEntry[] = [];
  const whole = walkIndexEntries(index, INDEX_HASH_BYTES.sha1!, (record) => {
    const stat = statOf(index, record.at);
    // Extended flags hold skip-worktree and intent-to-add: an entry with either is not decided by its stat data.
    if ((record.flags & (ASSUME_VALID | STAGE_MASK | EXTENDED)) !== 0 || stat[6] === GITLINK) return false;
    // Decoded straight from the bytes, without a view of them (one per entry, in the interpreter).
    const names = record.built ?? index;
    const path = names.toString('utf8', record.nameStart, record.nameEnd);
    // A path that is not UTF-8 would name another file once decoded.
    if (!isAsciiText(path) && !Buffer.from(path, 'utf8').equals(nameOf(index, record))) return false;
    entries.push({ path, stat });
    return true;
  });
  return whole ? entries : undefined;
}

/**
 * True when `text`, decoded from UTF-8, came from ASCII bytes alone: each ASCII byte decodes to itself, and any other
 * byte to a character of U+0080 or above (a code point of its own, or U+FFFD where the bytes are not UTF-8).
 */
function isAsciiText(text: string): boolean {
  return !NON_ASCII.test(text);
}

const NON_ASCII = /[\u0080-\uffff]/;
