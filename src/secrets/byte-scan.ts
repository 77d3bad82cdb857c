import { type CompiledRule, opensAt } from './compiled-rule.js';
import { HANDLE, type HitDrops, WALK } from './hit-bytes.js';
import type { KeywordHits } from './keyword-hits.js';
import { type LineHits, queueLineWindow } from './line-windows.js';
import { GateCheck } from './name-gate.js';
import type { NameKeywords, NameWalk } from './name-keywords.js';
import type { PendingWindows, WindowRunner } from './pending-windows.js';
import type { KeywordAutomaton, KeywordOutput } from './prefilter.js';
import { runRuleWindow } from './run-rule-window.js';
import type { ScanState } from './scan-state.js';
import { type StateShapes, shapeMask, withoutJsonRefuted } from './shape-masks.js';
import type { UnitBytes } from './unit-bytes.js';

/**
 * The scan of a file read from its bytes, one per character (ASCII, or UTF-8 read one byte per UTF-16 unit through
 * `unit-bytes.ts`), that makes no
 * string of the whole file: the keyword pass, the name-keyword walk and the line bounds read the buffer; a rule's
 * window becomes a string of its own when it runs; and what a hit's gates read (their checks in code, the shared name
 * parse, the gate regexes) is read from a tile, a string of whole lines around the hit, made once for the hits of the
 * next `tileBytes` or so. A string of a whole file over 128 KB is a fresh mapping that the kernel zeroes page by page,
 * and most bytes of most files are read by nothing but the keyword pass.
 *
 * Why a tile decides as the whole text does: every gate reads no further than the first line feed after the hit
 * (`GateRead.crossesLine` is false for each, or the scan is not made this way), and every check in code stops where a
 * line ends, reading back or ahead (the start of a string is read as no character, which no check tells from a line
 * feed); a tile starts where a line starts and ends after a line feed or where the file ends. The property tests in
 * `byte-scan.test.ts` scan random text with tiles of one line and compare every result with the string's scan.
 */

/** What the scanner lends a byte scan: its automata and its rules. */
export interface ByteScanContext {
  readonly automaton: KeywordAutomaton<CompiledRule>;
  readonly nameKeywords: NameKeywords<CompiledRule>;
  readonly compiled: readonly CompiledRule[];
  /** Per automaton state, which rules of its keywords a hit's name parse lets through (`shape-masks.ts`). */
  readonly shapes: StateShapes;
  /** Per automaton state, what the bytes around a hit must hold for it to be handled. */
  readonly drops: HitDrops;
  /** About how many bytes a tile holds (whole lines, so more when a line is longer). */
  readonly tileBytes: number;
}

/** The line-window state of a byte scan, with its tiles. */
interface ByteHits extends LineHits {
  readonly scan: ScanState;
  readonly bytes: Buffer;
  readonly tiles: Tiles;
}

/** About how many units a tile holds that is decoded (it holds non-ASCII text, `unit-bytes.ts`). */
const DECODED_TILE = 2048;

/** The tile the latest hits were decided on: `text` holds the bytes `[start, end)`, whole lines. */
class Tiles {
  text = '';
  start = 0;
  end = -1;
  gates = new GateCheck('');

  constructor(
    readonly bytes: Buffer,
    private readonly size: number,
    /** Set when `bytes` are the units of a decoded text (`unit-bytes.ts`): a range holding a non-ASCII one is decoded. */
    private readonly units: UnitBytes | null = null,
  ) {}

  /** Past the first line feed at or after `from`, or the end. */
  private lineEndFrom(from: number): number {
    const lineFeed = from >= this.bytes.length ? -1 : this.bytes.indexOf(10, from);
    return lineFeed === -1 ? this.bytes.length : lineFeed + 1;
  }

  /** The text of `[start, end)`: its one-byte reading, or its decoded text when it holds a non-ASCII unit. */
  textOf(start: number, end: number): string {
    return this.units === null ? this.bytes.toString('latin1', start, end) : this.units.text(start, end);
  }

  /** Makes the tile hold the line of the hit `[at, after)` (hits come in order). */
  cover(at: number, after: number): void {
    const { bytes } = this;
    if (at >= this.start && (after < this.end || this.end === bytes.length)) return;
    // A keyword is printable, so a hit at 0 starts the first line.
    const start = at === 0 ? 0 : bytes.lastIndexOf(10, at - 1) + 1;
    let end = this.lineEndFrom(Math.max(after, start + this.size));
    // A tile that must be decoded is made as short as its hit's lines allow: decoding costs by the character.
    if (this.units !== null && !this.units.isAscii(start, end))
      end = this.lineEndFrom(Math.max(after, start + DECODED_TILE));
    this.text = this.textOf(start, end);
    this.start = start;
    this.end = end;
    this.gates = new GateCheck(this.text);
  }
}

/**
 * `SecretScanner.advance` over the whole of `bytes`, read one per character: the same windows opened and run, so the
 * same results in `scan`, at the same offsets. With `units` (a UTF-8 file that is not all ASCII), `bytes` are
 * `units.units`: offsets are the decoded text's, and a tile or window holding a non-ASCII unit is decoded.
 */
export function advanceBytes(
  context: ByteScanContext,
  scan: ScanState,
  bytes: Buffer,
  pending: PendingWindows,
  found: KeywordHits,
  units: UnitBytes | null = null,
): void {
  const tiles = new Tiles(bytes, context.tileBytes, units);
  pending.runner = new TileWindows(context.compiled, tiles, scan);
  const hits: ByteHits = {
    scan,
    syntax: scan.syntax,
    lockfile: scan.lockfile,
    documentation: scan.documentation,
    scannedUntil: scan.scannedUntil,
    text: '',
    length: bytes.length,
    bytes,
    base: 0,
    pending,
    lineStart: -1,
    lineEnd: -2,
    tiles,
  };
  scan.state = handleHits(context, hits, found, scan.state);
  pending.flushAll();
}

/** The loop over the keyword pass's hits (see `SecretScanner.handleHits`); returns the automaton's state at the end. */
function handleHits(context: ByteScanContext, hits: ByteHits, found: KeywordHits, state: number): number {
  const { scan, bytes } = hits;
  const walk = context.nameKeywords.startWalk('');
  const until = bytes.length;
  for (let next = 0; next < until; next = found.at) {
    found.findBytes(context.automaton, scan.accepting, bytes, next, until, state);
    state = found.state;
    handleBatch(context, hits, found, walk);
  }
  return state;
}

/** A keyword of `compiled` found by the name walk at `[at, after)`. */
function openNamed(compiled: CompiledRule, at: number, after: number, hits: ByteHits): void {
  if (at >= hits.scannedUntil[compiled.index]!) openWindow(compiled, at, after, hits);
}

/**
 * The hits of one batch of the keyword pass. A function of its own, called once per batch: V8 compiles its loop while
 * the first batch runs (on-stack replacement), and the loop over batches (here, in `handleHits`) had no type feedback
 * then for what it runs after a batch, so that compiled code was thrown away at the first batch's end and compiled
 * again (`--trace-deopt`): on a file of keyword-dense JSON, a second compilation of the largest function of the scan.
 */
function handleBatch(context: ByteScanContext, hits: ByteHits, found: KeywordHits, walk: NameWalk): void {
  const { bytes, scannedUntil, tiles } = hits;
  const { automaton, nameKeywords, shapes, drops } = context;
  const { outputs } = automaton;
  for (let hit = 0; hit < found.count; hit++) {
    const last = found.ends[hit]!;
    const state = found.states[hit]!;
    const keywords = outputs[state]!;
    // A hit no rule of its keywords could open is dropped, or only walked when the name walk may (`hit-bytes.ts`).
    const test = drops.of(state);
    if (test !== null) {
      const verdict = test.verdict(bytes, last + 1);
      if (verdict !== HANDLE) {
        if (verdict === WALK) walkOnly(keywords, last, bytes, nameKeywords, walk, hits);
        continue;
      }
    }
    const masks = shapes.of(state);
    for (let k = 0; k < keywords.length; k++) {
      const keyword = keywords[k]!;
      const at = last - keyword.length + 1;
      const masked = masks[k]!;
      let mask = -1;
      if (masked !== null) {
        tiles.cover(at, last + 1);
        // The gates' own parse of the hit, which their `passes` then reads again without parsing.
        const after = last + 1 - tiles.start;
        const { gates } = tiles;
        const runEnd = gates.nameEnd(after);
        const separator = gates.separatorAfter(after);
        // The walk, before the rules as everywhere, only where that parse lets a provider-named rule open.
        if (keyword.nameWord && drops.walkMayOpen(tiles.text, after, runEnd, separator, keyword.length))
          nameKeywords.forEachBeforeBytes(walk, bytes, at, openNamed, hits);
        mask = shapeMask(masked, tiles.text, after, runEnd, separator);
        mask = withoutJsonRefuted(masked, mask, gates, after);
      } else if (keyword.nameWord) nameKeywords.forEachBeforeBytes(walk, bytes, at, openNamed, hits);
      const { items } = keyword;
      for (let i = 0; i < items.length; i++) {
        const compiled = items[i]!;
        if ((mask & (1 << i)) !== 0 && at >= scannedUntil[compiled.index]!)
          openWindow(compiled, at, last + 1, hits, masked !== null);
      }
    }
  }
}

/** The name walks of a hit's name words, in the order `handleBatch` makes them, and nothing else of the hit. */
function walkOnly(
  keywords: readonly KeywordOutput<CompiledRule>[],
  last: number,
  bytes: Buffer,
  nameKeywords: NameKeywords<CompiledRule>,
  walk: NameWalk,
  hits: ByteHits,
): void {
  for (let k = 0; k < keywords.length; k++) {
    const keyword = keywords[k]!;
    if (keyword.nameWord) nameKeywords.forEachBeforeBytes(walk, bytes, last - keyword.length + 1, openNamed, hits);
  }
}

/**
 * `SecretScanner.openWindow` for a hit of `compiled`'s keyword at `bytes[at, after)`, its gates read on a tile;
 * `shaped` when its bit in the hit's shape mask was set (read on the same tile, which covers the hit still).
 */
function openWindow(compiled: CompiledRule, at: number, after: number, hits: ByteHits, shaped = false) {
  const { bytes, tiles } = hits;
  if (compiled.gateCheck !== undefined || compiled.gate !== undefined) {
    tiles.cover(at, after);
    if (!opensAt(compiled, tiles.text, after - tiles.start, tiles.gates, shaped)) return;
  }
  if (!compiled.block) {
    queueLineWindow(hits, compiled.index, compiled.rule, at);
    return;
  }
  const start = Math.max(0, at - 64);
  const end = Math.min(bytes.length, at + compiled.maxLength);
  hits.scannedUntil[compiled.index] = end;
  runWindow(compiled, tiles, start, end, hits.scan, false);
}

/** The pending windows of one file's byte scan, run on its tiles (a class: one call target, see `WindowRunner`). */
class TileWindows implements WindowRunner {
  constructor(
    private readonly compiled: readonly CompiledRule[],
    private readonly tiles: Tiles,
    private readonly scan: ScanState,
  ) {}

  runWindow(rule: number, start: number, end: number, cutShort: boolean): void {
    runWindow(this.compiled[rule]!, this.tiles, start, end, this.scan, cutShort);
  }
}

/**
 * Runs `compiled` over the bytes `[start, end)`: a slice of the tile when it holds them (no copy: on one long line
 * of keyword-dense JSON, merged windows cover most of the line for each of a dozen rules), else a string of their own.
 */
function runWindow(compiled: CompiledRule, tiles: Tiles, start: number, end: number, scan: ScanState, cut: boolean) {
  if (start >= tiles.start && end <= tiles.end)
    runRuleWindow(compiled, tiles.text, start - tiles.start, end - tiles.start, scan, cut, tiles.start);
  else runRuleWindow(compiled, tiles.textOf(start, end), 0, end - start, scan, cut, start);
}
