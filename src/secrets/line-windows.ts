import { ITEM_BETWEEN } from './env-entry.js';
import type { PendingWindows } from './pending-windows.js';
import type { SecretRule } from './rule.js';
import type { FileSyntax } from './syntax.js';

/** Where a line rule runs around a keyword hit: its line, within reach of the hit, and the next line. */

/** How far a line window reaches either side of a hit. */
export const LINE_REACH = 1024;
/**
 * Lines longer than this are minified code or one-line data (minified JSON configs). Generic rules skip them in code
 * (a bundle's `token="…"` is library output) and, elsewhere, look only in a bounded window around each keyword hit.
 */
const LONG_LINE = 1000;
/** A long-line window for generic rules: the name may start this far before the keyword… */
const LONG_LINE_BEFORE = 160;
/** …and name rest, separator and value (≤ 200) end within this far after it. Windows are twice this long. */
const LONG_LINE_AFTER = 400;
/**
 * How many lines before and after the hit's an `item` window takes: a container env item's name and value with up to
 * `ITEM_BETWEEN` (`env-entry.ts`) lines between them, in either order.
 */
const ITEM_LINES = ITEM_BETWEEN + 1;

/** What the scan of one text carries from one keyword hit to the next. */
export interface LineHits {
  readonly syntax: FileSyntax;
  readonly lockfile: boolean;
  readonly documentation: boolean;
  /** Per rule, the offset of the whole text up to which it has run. */
  readonly scannedUntil: Float64Array;
  /** The text held, which starts at offset `base` of the whole ('' when `bytes` holds it). */
  readonly text: string;
  /** The length of what is held. */
  readonly length: number;
  /** Set when the text is read from its bytes, one per character (`byte-scan.ts`), not from `text`. */
  readonly bytes: Buffer | null;
  readonly base: number;
  readonly pending: PendingWindows;
  /** The line around the latest hit, computed once per line however many hits it has (minified code has many). */
  lineStart: number;
  lineEnd: number;
}

/** Queues the window of rule `index` (a line rule) for its keyword hit at `at`, or nothing where it does not apply. */
export function queueLineWindow(hits: LineHits, index: number, rule: SecretRule, at: number): void {
  const { text, bytes, length, base, pending, scannedUntil } = hits;
  if (at < hits.lineStart || at > hits.lineEnd) {
    // A keyword is printable, so a hit at 0 starts the first line (where `lastIndexOf` on a buffer would read from
    // its end).
    if (bytes !== null) hits.lineStart = at === 0 ? 0 : bytes.lastIndexOf(10, at - 1) + 1;
    else hits.lineStart = text.lastIndexOf('\n', at - 1) + 1;
    const lineEnd = bytes !== null ? bytes.indexOf(10, at) : text.indexOf('\n', at);
    hits.lineEnd = lineEnd === -1 ? length : lineEnd;
  }
  const { lineStart, lineEnd } = hits;
  const long = lineEnd - lineStart > LONG_LINE;
  if (rule.generic && (hits.lockfile || (long && hits.syntax === 'code'))) return;
  if (hits.documentation && (rule.generic || rule.commonInExamples)) return;
  if (rule.generic && long) {
    // Every hit before `at + LONG_LINE_AFTER` has its whole match inside this window, so the next window starts at
    // least LONG_LINE_AFTER further on: each character is scanned a bounded number of times.
    const end = Math.min(lineEnd, at + 2 * LONG_LINE_AFTER);
    scannedUntil[index] = base + at + LONG_LINE_AFTER;
    pending.add(index, Math.max(lineStart, at - LONG_LINE_BEFORE), end, end < lineEnd);
    return;
  }
  const item = !long && rule.window === 'item';
  const start = item ? itemStart(hits, lineStart) : Math.max(lineStart, at - LINE_REACH);
  let end = Math.min(lineEnd, at + LINE_REACH);
  // Later hits on this line need no new window; hits on the next line do (their window reaches further).
  scannedUntil[index] = base + end;
  // The next line too (a k8s `name:` line and its `value:` line belong together); an item's lines up to `ITEM_LINES`,
  // up to the first after the next that starts the next item or leaves the item (`endsItem`).
  const lines = item ? ITEM_LINES : 1;
  const indent = item ? opening(hits, lineStart) >> 8 : 0;
  for (let line = lines; !long && line > 0 && end < length; line--) {
    const next = bytes !== null ? bytes.indexOf(10, end + 1) : text.indexOf('\n', end + 1);
    if (next === -1 || next > end + LINE_REACH) {
      end = Math.min(length, end + 1 + LINE_REACH);
      break;
    }
    if (line < lines && endsItem(opening(hits, end + 1), indent)) break;
    end = next;
  }
  pending.add(index, start, end);
}

/** Codes of what opens a line, as `opening` gives them. */
const DASH = 45;
const HASH = 35;
const BRACE = 123;
const BRACKET = 91;
const OTHER = 128;

/**
 * What opens the line starting at `from`: its indentation (blanks, up to `LINE_REACH`) shifted left by 8, and the code
 * after it (a line feed or carriage return for a blank line, `OTHER` for any non-ASCII character). Only ASCII blanks
 * and codes decide, so a byte read and a character read of the line give the same.
 */
function opening(hits: LineHits, from: number): number {
  const { bytes, text, length } = hits;
  let at = from;
  const stop = Math.min(length, from + LINE_REACH);
  let code = 10;
  for (; at < stop; at++) {
    code = bytes !== null ? bytes[at]! : text.charCodeAt(at);
    if (code !== 32 && code !== 9) break;
    code = 10;
  }
  return ((at - from) << 8) | (code > 127 ? OTHER : code);
}

/**
 * Whether a line after an item's hit line (opened as `opening` says) ends the item's window: a `- ` at the hit line's
 * indentation or less (the next item), or any other line less indented; not a blank or comment line.
 */
function endsItem(open: number, indent: number): boolean {
  const code = open & 0xff;
  if (code === 10 || code === 13 || code === HASH) return false;
  return open >> 8 < indent || (code === DASH && open >> 8 <= indent);
}

/** Whether a line (opened as `opening` says) starts an item: a `- `, or a flow mapping's or sequence's `{` or `[`. */
function startsItem(open: number): boolean {
  const code = open & 0xff;
  return code === DASH || code === BRACE || code === BRACKET;
}

/**
 * Where the window of an `item` rule (see `SecretRule.window`) starts for a hit on the line starting at `lineStart`:
 * the start of the nearest line before that starts an item (`startsItem`; `lineStart` when the hit's own line does),
 * else of the `ITEM_LINES`-th line before, or of the line after the nearest line before that is longer than
 * `LINE_REACH`. Which lines start an item does not depend on the hit, so windows start in the hits' order. Only line
 * feeds and lengths in UTF-16 units decide where it starts (a byte scan's offsets are the decoded text's). Hits come
 * in order, so each window starts at or after the previous one's start, as `SeenMatches` needs (a later line's lines
 * before end where this one's do, or later).
 */
function itemStart(hits: LineHits, lineStart: number): number {
  const { bytes, text } = hits;
  let start = lineStart;
  if (startsItem(opening(hits, lineStart))) return start;
  for (let line = 0; line < ITEM_LINES && start > 0; line++) {
    // The line feed that ends the line before is at `start - 1`; a buffer's `lastIndexOf` reads a negative offset
    // from its end, so the first line is no search.
    const before =
      start === 1 ? 0 : (bytes !== null ? bytes.lastIndexOf(10, start - 2) : text.lastIndexOf('\n', start - 2)) + 1;
    const size = start - before;
    if (size > LINE_REACH) break;
    start = before;
    if (startsItem(opening(hits, start))) break;
  }
  return start;
}
