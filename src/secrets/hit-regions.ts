import { isAscii } from 'node:buffer';
import type { KeywordHits } from './keyword-hits.js';
import type { KeywordAutomaton } from './prefilter.js';

/**
 * The parts of a UTF-8 file that the scanner must read as text: the lines around each keyword hit that may open a
 * window, found by the prefilter over the bytes (keywords are ASCII, and every byte of a multi-byte character folds
 * to NUL as the character itself does, so hits are the same). Only these are decoded into strings. A region holds
 * everything a hit's gates, windows and checks read (the line before the hit's, the hit's own line and the two after
 * it, and a block rule's reach), so the scanner finds in it what it finds around that hit in the whole text. Regions
 * start and end at line ends: a 0x0A byte is never inside a multi-byte character.
 */

/**
 * How far before a hit's last character a check or window reads: a block window starts 64 characters before the
 * keyword, a name is walked back up to 160 (`NAME_REACH`), a keyword is shorter than the rest.
 */
const BACK = 512;
/** The most UTF-8 bytes one UTF-16 code unit takes: character reaches become byte reaches this many times longer. */
const UNIT_BYTES = 3;
/** Lines after the one a region reaches to: the next line joins a line window, one more is a gate's slack. */
const LINES_AFTER = 2;

/**
 * How far past a hit ending at byte `last` (automaton state `state`) the text is read, in characters: 0 for a line (a region always holds
 * the hit's line and the next ones), a block rule's length, or -1 when no rule can act on the hit (a keyword whose
 * rules this path exempts, or whose byte check turns it down).
 */
export type HitReach = (state: number, last: number) => number;

/** Merged regions as `[start, end)` pairs of byte offsets, in order, each starting at a line start. */
export function hitRegions(
  bytes: Buffer,
  automaton: KeywordAutomaton<unknown>,
  hits: KeywordHits,
  reachOf: HitReach,
): number[] {
  const regions: number[] = [];
  const length = bytes.length;
  let start = -1;
  let end = -1;
  // The line end at or after the latest reach point: a hit reaching no further (the many hits of one minified line)
  // ends its region where the one before did, without a search for the next lines' ends.
  let lineEnd = -1;
  let state = 0;
  for (let next = 0; next < length; next = hits.at) {
    hits.findBytes(automaton, bytes, next, length, state);
    state = hits.state;
    for (let hit = 0; hit < hits.count; hit++) {
      const last = hits.ends[hit]!;
      const reach = reachOf(hits.states[hit]!, last);
      if (reach < 0) continue;
      // A hit within `BACK` bytes of the region's end joins it whatever the characters between.
      const near = last - BACK;
      const from = end !== -1 && near <= end ? near : lineStartBefore(bytes, backFrom(bytes, last));
      const point = reach === 0 ? last : reachEnd(bytes, last, reach);
      let to = end;
      if (point > lineEnd) {
        lineEnd = bytes.indexOf(10, point);
        if (lineEnd === -1) lineEnd = length;
        to = linesEnd(bytes, lineEnd, LINES_AFTER);
      }
      if (from <= end) {
        if (to > end) end = to;
        continue;
      }
      if (end !== -1) regions.push(start, end);
      start = from;
      end = to;
    }
  }
  if (end !== -1) regions.push(start, end);
  return regions;
}

/** A byte at least `BACK` characters before `last`: `BACK` bytes back where those are ASCII, else more. */
function backFrom(bytes: Buffer, last: number): number {
  if (last <= BACK) return 0;
  const near = last - BACK;
  return isAscii(bytes.subarray(near, last)) ? near : Math.max(0, last - BACK * UNIT_BYTES);
}

/** A byte at least `reach` characters after `last`, or the last byte. */
function reachEnd(bytes: Buffer, last: number, reach: number): number {
  const end = bytes.length - 1;
  const near = Math.min(end, last + reach);
  return isAscii(bytes.subarray(last, near)) ? near : Math.min(end, last + reach * UNIT_BYTES);
}

/** The start of the line before the one holding `at`. */
function lineStartBefore(bytes: Buffer, at: number): number {
  const own = at === 0 ? 0 : bytes.lastIndexOf(10, at - 1) + 1;
  return own < 2 ? 0 : bytes.lastIndexOf(10, own - 2) + 1;
}

/** Just past the end of the line `lines` lines after the one ending at `newline` (a newline's offset, or the end). */
function linesEnd(bytes: Buffer, newline: number, lines: number): number {
  if (newline >= bytes.length) return bytes.length;
  for (let more = 0; more < lines && newline !== -1; more++) newline = bytes.indexOf(10, newline + 1);
  return newline === -1 ? bytes.length : newline + 1;
}
