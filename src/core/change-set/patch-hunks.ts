import { appendAll } from '../append-all.js';
import type { LineRange } from './types.js';

/**
 * Reads what tollgate needs from a `-U0` patch: per `diff --git` section, whether git called it binary, the added line
 * ranges and the places where lines were only deleted. Pure. The patch is searched with `indexOf` for a few ASCII
 * markers and never walked line by line: hunk bodies (whole new files, for additions) are most of it and are skipped.
 */

export interface PatchSection {
  binary: boolean;
  /** New-version line ranges the hunks added. */
  added: LineRange[];
  /**
   * For each pure-deletion hunk, the new-version line the deletion sits after (0 = at the top). The caller turns it
   * into "the line the deletion sits before", which needs the file's line count at the end of the file.
   */
  deletedAfter: number[];
}

// Body lines start with +, -, space or \ and headers quote odd paths, so these markers only ever open a section or a
// hunk, or name a binary file.
const SECTION_START = 'diff --git ';
const NEXT_SECTION = '\ndiff --git ';
const NEXT_HUNK = '\n@@ -';
const BINARY_MARKERS = ['\nBinary files ', '\nGIT binary patch'];

/** The sections of a multi-file patch, in order. */
export function parsePatch(patch: string): PatchSection[] {
  const sections: PatchSection[] = [];
  let start = patch.startsWith(SECTION_START) ? 0 : nextIndex(patch, NEXT_SECTION, 0, 1);
  // The next hunk marker at or after the current position, found once and reused: sections without hunks (binary,
  // mode-only) must not each rescan the rest of the patch.
  let hunk = patch.indexOf(NEXT_HUNK, start === -1 ? 0 : start);
  while (start !== -1) {
    const next = nextIndex(patch, NEXT_SECTION, start, 1);
    const end = next === -1 ? patch.length : next;
    if (hunk !== -1 && hunk < start) hunk = patch.indexOf(NEXT_HUNK, start);
    const headerEnd = hunk === -1 || hunk >= end ? end : hunk;
    const header = patch.slice(start, headerEnd);
    const section: PatchSection = {
      binary: BINARY_MARKERS.some((marker) => header.includes(marker)),
      added: [],
      deletedAfter: [],
    };
    while (hunk !== -1 && hunk < end) {
      readHunk(patch, hunk + NEXT_HUNK.length, section);
      hunk = patch.indexOf(NEXT_HUNK, hunk + NEXT_HUNK.length);
    }
    section.added = mergeRanges(section.added);
    sections.push(section);
    start = next;
  }
  return sections;
}

/**
 * `parsePatch` for a patch that arrives in pieces (git's output as it is written): each piece is parsed up to the
 * start of its last section, which waits for the rest of its text, so most of the work is done while git still
 * writes. The sections are the ones `parsePatch` finds in the whole text.
 */
export class PatchStream {
  private pending = '';
  /** How far `pending` was searched for a section start without finding one. */
  private searched = 0;
  private readonly parsed: PatchSection[] = [];

  /** `text`: the next piece, decoded as latin1 (any cut is then a character boundary). */
  push(text: string): void {
    this.pending += text;
    let last = -1;
    // Only the new text (and the few characters a marker may straddle) is searched: a long section that arrives in
    // many pieces is not searched again from its start each time.
    for (
      let at = this.pending.indexOf(NEXT_SECTION, Math.max(0, this.searched - NEXT_SECTION.length + 1));
      at !== -1;
      at = this.pending.indexOf(NEXT_SECTION, at + 1)
    ) {
      last = at;
    }
    if (last === -1) {
      this.searched = this.pending.length;
      return;
    }
    // Every section before the last one is complete.
    appendAll(this.parsed, parsePatch(this.pending.slice(0, last + 1)));
    this.pending = this.pending.slice(last + 1);
    this.searched = this.pending.length;
  }

  /** Every section, once the whole patch was pushed. */
  end(): PatchSection[] {
    appendAll(this.parsed, parsePatch(this.pending));
    this.pending = '';
    return this.parsed;
  }
}

/** Where `marker` occurs after `from`, pointing `skip` characters into it (past the newline), or -1. */
function nextIndex(text: string, marker: string, from: number, skip: number): number {
  const at = text.indexOf(marker, from);
  return at === -1 ? -1 : at + skip;
}

const DIGIT_0 = 48;
const DIGIT_9 = 57;
const COMMA = 44;
const SPACE = 32;
const PLUS = 43;

/** From just after `@@ -` in `@@ -a[,b] +c[,d] @@`: records the new-side range `c`, `d` (1 when omitted). */
function readHunk(patch: string, from: number, section: PatchSection): void {
  let pos = patch.indexOf(' ', from);
  if (pos === -1 || patch.charCodeAt(pos + 1) !== PLUS) return;
  pos += 2;
  const readNumber = (): number => {
    const first = pos;
    let value = 0;
    for (let code = patch.charCodeAt(pos); code >= DIGIT_0 && code <= DIGIT_9; code = patch.charCodeAt(pos)) {
      value = value * 10 + (code - DIGIT_0);
      pos += 1;
    }
    return pos === first ? Number.NaN : value;
  };
  const start = readNumber();
  let count = 1;
  if (patch.charCodeAt(pos) === COMMA) {
    pos += 1;
    count = readNumber();
  }
  if (Number.isNaN(start) || Number.isNaN(count) || patch.charCodeAt(pos) !== SPACE) return;
  if (count > 0) section.added.push({ start, end: start + count - 1 });
  else section.deletedAfter.push(start);
}

/** Sorted, with overlapping and touching ranges joined. */
export function mergeRanges(ranges: readonly LineRange[]): LineRange[] {
  if (ranges.length <= 1) return ranges.map((range) => ({ ...range }));
  // git prints hunks in order, so the sort is usually a no-op check.
  const inOrder = ranges.every((range, i) => i === 0 || (ranges[i - 1] as LineRange).start <= range.start);
  const sorted = inOrder ? ranges : [...ranges].sort((a, b) => a.start - b.start || a.end - b.end);
  const merged: LineRange[] = [];
  for (const range of sorted) {
    const last = merged[merged.length - 1];
    if (last && range.start <= last.end + 1) last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
  }
  return merged;
}
