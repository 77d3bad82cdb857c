import { type PatchSection, parsePatch } from './patch-hunks.js';
import {
  MODE_GITLINK,
  MODE_SYMLINK,
  MODE_TYPE_MASK,
  parseRawDiff,
  patchCountOf,
  type RawEntry,
  splitDiffOutput,
} from './raw-diff.js';
import type { FileStatus, LineRange } from './types.js';

/** What the new version of a path is on disk, which decides how its content is read. */
export type EntryKind = 'file' | 'symlink' | 'submodule' | 'deleted';

/** One changed path as the diff alone describes it (no file system look-ups yet). */
export interface DescribedEntry {
  path: string;
  oldPath?: string;
  status: FileStatus;
  kind: EntryKind;
  /** Mode and object id of the new version (0 and the null id for a deletion), as the temporary index holds it. */
  mode: number;
  id: string;
  /** Mode and object id at the base (0 and the null id for an addition). */
  srcMode: number;
  srcId: string;
  binary: boolean;
  added: LineRange[];
  /** See `PatchSection.deletedAfter`. */
  deletedAfter: number[];
}

const NO_PATCH: PatchSection = { binary: false, added: [], deletedAfter: [] };

/**
 * Turns the output of `git diff-index -z --raw -p -U0 -M` into entries. The raw records and the patch sections come in
 * the same order, so they are paired by position: paths in patch headers are quoted and cannot be matched reliably.
 * `parsed`: the raw records of this very output, when the caller already parsed them.
 */
export function describeDiff(output: Buffer, parsed?: RawEntry[]): DescribedEntry[] {
  const { raw, patch } = splitDiffOutput(output, parsed === undefined);
  return describeSections(parsed ?? parseRawDiff(raw), parsePatch(patch));
}

/** `describeDiff` for raw records and patch sections read apart (the patch parsed while git wrote it). */
export function describeSections(entries: readonly RawEntry[], sections: readonly PatchSection[]): DescribedEntry[] {
  const expected = entries.reduce((sum, entry) => sum + patchCountOf(entry), 0);
  if (sections.length !== expected) {
    throw new Error(`git diff: ${entries.length} changed paths but ${sections.length} patches (expected ${expected})`);
  }
  let next = 0;
  return entries.map((entry) => {
    const count = patchCountOf(entry);
    // A type change prints the deletion first, then the creation: the new version is the last section.
    const section = sections[next + count - 1] ?? NO_PATCH;
    next += count;
    return describeEntry(entry, section);
  });
}

/** Raw records alone (no patch asked for): paths, modes and ids, without lines. */
export function describeRaw(entries: readonly RawEntry[]): DescribedEntry[] {
  return entries.map((entry) => describeEntry(entry, NO_PATCH));
}

function describeEntry(entry: RawEntry, section: PatchSection): DescribedEntry {
  const kind = kindOf(entry);
  const status = statusOf(entry);
  const hasLines = kind === 'file' || kind === 'symlink';
  return {
    path: entry.path,
    ...(entry.status === 'R' || entry.status === 'C' ? { oldPath: entry.srcPath } : {}),
    status,
    kind,
    mode: entry.dstMode,
    id: entry.dstId,
    srcMode: entry.srcMode,
    srcId: entry.srcId,
    binary: kind === 'file' && section.binary,
    added: hasLines ? section.added : [],
    deletedAfter: hasLines ? section.deletedAfter : [],
  };
}

function kindOf(entry: RawEntry): EntryKind {
  if (entry.dstMode === 0) return 'deleted';
  const type = entry.dstMode & MODE_TYPE_MASK;
  if (type === MODE_GITLINK) return 'submodule';
  if (type === MODE_SYMLINK) return 'symlink';
  return 'file';
}

function statusOf(entry: RawEntry): FileStatus {
  if ((entry.srcMode & MODE_TYPE_MASK) === MODE_GITLINK || (entry.dstMode & MODE_TYPE_MASK) === MODE_GITLINK) {
    return 'submodule';
  }
  switch (entry.status) {
    case 'A':
    case 'C': // only with copy detection, which tollgate does not ask for; the copy is new content
      return 'added';
    case 'D':
      return 'deleted';
    case 'R':
      return 'renamed';
    case 'T':
      return 'type_changed';
    default:
      return 'modified';
  }
}
