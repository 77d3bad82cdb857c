import type { KeywordHits } from './keyword-hits.js';
import type { KeywordAutomaton } from './prefilter.js';

/**
 * The parts of a file whose bytes are its characters (ASCII or Latin-1: a byte offset is a character offset) that the
 * scanner must read as text: the lines around each keyword hit that may open a window, found by the prefilter over
 * the bytes. Only these are decoded into strings; in ordinary code they are a small part of the file. A region holds
 * everything a hit's gates, windows and checks read (the line before the hit's, the hit's own line and the two after
 * it, and a block rule's reach), so the scanner finds in it what it finds around that hit in the whole text.
 */

/**
 * How far before a hit's last byte a check or window reads: a block window starts 64 characters before the keyword, a
 * name is walked back up to 160 (`NAME_REACH`), a keyword is shorter than the rest.
 */
const BACK = 512;
/** Lines after the one a region reaches to: the next line joins a line window, one more is a gate's slack. */
const LINES_AFTER = 2;

/**
 * How far past a hit ending at `last` (automaton state `state`) the text is read: 0 for a line (a region always holds
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
  let state = 0;
  for (let next = 0; next < length; next = hits.at) {
    hits.findBytes(automaton, bytes, next, length, state);
    state = hits.state;
    for (let hit = 0; hit < hits.count; hit++) {
      const last = hits.ends[hit]!;
      const reach = reachOf(hits.states[hit]!, last);
      if (reach < 0) continue;
      const from = lineStartBefore(bytes, Math.max(0, last - BACK));
      const to = linesEnd(bytes, Math.min(length - 1, last + reach), LINES_AFTER);
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

/** The start of the line before the one holding `at`. */
function lineStartBefore(bytes: Buffer, at: number): number {
  const own = at === 0 ? 0 : bytes.lastIndexOf(10, at - 1) + 1;
  return own < 2 ? 0 : bytes.lastIndexOf(10, own - 2) + 1;
}

/** Just past the end of the line `lines` lines after the one holding `at` (its newline included), or the text's end. */
function linesEnd(bytes: Buffer, at: number, lines: number): number {
  let newline = bytes.indexOf(10, at);
  for (let more = 0; more < lines && newline !== -1; more++) newline = bytes.indexOf(10, newline + 1);
  return newline === -1 ? bytes.length : newline + 1;
}
