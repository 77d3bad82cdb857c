import { isAscii } from 'node:buffer';
import { lstatSync, type Stats } from 'node:fs';
import {
  GITLINK,
  INDEX_HASH_BYTES,
  type IndexRecord,
  nameOf,
  STAGE_MASK,
  statOf,
  uint32,
  walkIndexEntries,
} from './index-entries.js';

/**
 * Index entries whose file changed in a way git's own stat check cannot see.
 *
 * git compares a file's times with its index entry's to the whole second: comparing nanoseconds is a build option
 * (`USE_NSEC`) that common builds leave off, Debian's git included. So a write that keeps the size and puts the mtime
 * back, made within the same second as the ctime the entry holds (the second in which git last recorded the file),
 * leaves every field git compares as it was: `git status` and `git add` take the file as unchanged and never read it,
 * whatever it now holds. The kernel still moved the file's ctime, and the entry still holds the nanoseconds git
 * recorded: where the seconds agree and the nanoseconds do not, git is blind to the change. Such an entry is "second
 * blind": the snapshot has git read its file again, and a tree stamp names its stat data (the stamp then changes with
 * every write to it).
 *
 * An index written by a tool that records no nanoseconds makes every file it lists second blind: each is read again.
 */

/** One second-blind entry: what `git update-index --index-info` needs to put it back with no stat data. */
export interface SecondBlindEntry {
  /** The path's bytes, as the index holds them. */
  name: Buffer;
  /** The path as text (UTF-8), or undefined when its bytes are not UTF-8. */
  path: string | undefined;
  mode: number;
  oid: string;
}

const NO_THROW = { throwIfNoEntry: false } as const;
/**
 * How close the file's time in milliseconds (a double, exact to a quarter of a microsecond at today's dates) must be to
 * the entry's nanoseconds to count as the same. A write after git recorded the entry is later by far more: git's own
 * lstat, its index write and another process's write lie between them.
 */
const MATCH_NS = 1000;

/**
 * What git reads the index file with, when known: its mtime (git's racy-clean rule compares entries with it) and its
 * ctime (which says whether that mtime is the one its last write left).
 */
export interface IndexFileTimes {
  mtimeMs: number;
  ctimeMs: number;
}

/**
 * The second-blind entries of `index` (its bytes, for `objectFormat`) against the files under `root` as they are now;
 * undefined when the index is not one `walkIndexEntries` understands whole. Entries in a merge stage (git reads their
 * files) and gitlinks (a submodule's state is its own repository's) are not looked at, nor are files that are absent.
 *
 * Only entries that can be blind have their file's stat data read (an `lstat` each costs more than git's own). With
 * `times` of an index file its last write left alone (its ctime within a second of its mtime), those are the entries
 * git recorded for a file whose ctime was later than its mtime (a backdated mtime, a chmod, a copy keeping times),
 * and those recorded in the last second before that write: for any other, git's racy-clean rule already reads a write
 * made in the second it was recorded (the entry's mtime is then not older than the index; a later index write git
 * makes finds the file changed and clears its size). Entries whose mtime is not older than the index are read by that
 * same rule, and skipped. Without `times`, or for an index whose mtime was set after its last write (its ctime then
 * later by more than a second), every entry's file is looked at.
 */
export function secondBlindEntries(
  index: Buffer,
  objectFormat: string,
  root: string,
  times?: IndexFileTimes,
): SecondBlindEntry[] | undefined {
  const hashBytes = INDEX_HASH_BYTES[objectFormat];
  if (hashBytes === undefined) return undefined;
  const finder = secondBlindFinder(index, hashBytes, root, times);
  return walkIndexEntries(index, hashBytes, finder.visit) ? finder.entries : undefined;
}

/**
 * `secondBlindEntries` one entry at a time, for a walk that looks at each entry for other reasons too (index-facts.ts):
 * `visit` each entry of `index` in turn (it always answers true), then read `entries`.
 */
export function secondBlindFinder(
  index: Buffer,
  hashBytes: number,
  root: string,
  times?: IndexFileTimes,
): { visit: (entry: IndexRecord) => true; entries: SecondBlindEntry[] } {
  const leftAlone = times !== undefined && Math.floor(times.ctimeMs / 1000) - Math.floor(times.mtimeMs / 1000) <= 1;
  // An mtime set after the write (forward or back) says nothing of what git compared with: no entry is skipped.
  const indexSecond = leftAlone ? Math.floor(times.mtimeMs / 1000) : Number.POSITIVE_INFINITY;
  const top = root.endsWith('/') ? root : `${root}/`;
  const entries: SecondBlindEntry[] = [];
  const visit = (entry: IndexRecord): true => {
    const at = entry.at;
    if ((entry.flags & STAGE_MASK) !== 0) return true;
    if (!mayBeSecondBlind(uint32(index, at), uint32(index, at + 8), indexSecond, leftAlone)) return true;
    const stat = statOf(index, at);
    if (stat[6] === GITLINK) return true;
    const name = nameOf(index, entry);
    const path = textOf(name);
    // A path whose bytes are not UTF-8 is looked up by its bytes.
    const info = statOrNothing(path === undefined ? Buffer.concat([Buffer.from(top), name]) : top + path);
    if (info && isSecondBlind(info, stat)) {
      const oid = index.toString('hex', entry.oidAt, entry.oidAt + hashBytes);
      entries.push({ name: Buffer.from(name), path, mode: stat[6]!, oid });
    }
    return true;
  };
  return { visit, entries };
}

/**
 * Whether an entry recorded with these ctime and mtime seconds can be second blind under an index file whose mtime
 * is in `indexSecond` (Infinity: unknown), left alone since its write or not (see `secondBlindEntries`).
 */
export function mayBeSecondBlind(
  ctimeSecond: number,
  mtimeSecond: number,
  indexSecond: number,
  leftAlone: boolean,
): boolean {
  if (mtimeSecond >= indexSecond) return false; // git's racy-clean rule reads the file
  return !leftAlone || mtimeSecond < ctimeSecond || ctimeSecond >= indexSecond - 1;
}

/**
 * True when a file's stat data `info` agrees with an index entry's `stat` (git's ten fields) in every field git
 * compares for a same-size file whose times it reads to the second, while its ctime or mtime differs in the
 * nanoseconds: changed since git recorded it, and git will not look.
 */
export function isSecondBlind(info: Stats, stat: readonly number[]): boolean {
  if (info.size >>> 0 !== stat[9]) return false;
  const ctime = splitMs(info.ctimeMs);
  const mtime = splitMs(info.mtimeMs);
  if (ctime.seconds >>> 0 !== stat[0] || mtime.seconds >>> 0 !== stat[2]) return false;
  return Math.abs(ctime.nanoseconds - stat[1]!) >= MATCH_NS || Math.abs(mtime.nanoseconds - stat[3]!) >= MATCH_NS;
}

/**
 * The file's stat data; undefined when it cannot be had (absent, a folder on its path replaced by a file, no
 * permission): git then cannot take it as unchanged either, and says so itself.
 */
function statOrNothing(path: string | Buffer): Stats | undefined {
  try {
    return lstatSync(path, NO_THROW);
  } catch {
    return undefined;
  }
}

function splitMs(ms: number): { seconds: number; nanoseconds: number } {
  const seconds = Math.floor(ms / 1000);
  return { seconds, nanoseconds: (ms - seconds * 1000) * 1e6 };
}

/** The path as text when its bytes are UTF-8 (as git's paths almost always are). */
function textOf(name: Buffer): string | undefined {
  const text = name.toString(isAscii(name) ? 'latin1' : 'utf8');
  return isAscii(name) || Buffer.from(text, 'utf8').equals(name) ? text : undefined;
}

/**
 * The input of `git update-index -z --index-info` that puts each entry back with its mode and object and no stat data:
 * the next `git add` of those paths then reads their files.
 */
export function forgetStatInput(entries: readonly SecondBlindEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const { name, mode, oid } of entries) {
    parts.push(Buffer.from(`${mode.toString(8).padStart(6, '0')} ${oid}\t`), name, NUL);
  }
  return Buffer.concat(parts);
}

/** Paths for `git add --pathspec-from-file=- --pathspec-file-nul` (read literally), as bytes. */
export function pathspecInput(names: readonly Buffer[]): Buffer {
  return Buffer.concat(names.flatMap((name) => [name, NUL]));
}

const NUL = Buffer.from([0]);
