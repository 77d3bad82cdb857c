import { type CompiledRule, opensAt } from './compiled-rule.js';
import { checkReachOf } from './gate-checks.js';
import { isRefutedInJsonValue, JSON_VALUE_LOOK_BACK } from './json-value.js';
import type { KeywordHits } from './keyword-hits.js';
import { dropsLineWindow, type LineHits, queueLineWindow } from './line-windows.js';
import { CALL_ARGUMENT_LOOK_BACK, GateCheck, QUOTED_VALUE_REACH, shapeAllows, valueAt } from './name-gate.js';
import type { NameKeywords, NameWalk } from './name-keywords.js';
import type { PendingWindows, WindowRunner } from './pending-windows.js';
import type { KeywordAutomaton } from './prefilter.js';
import { runRuleWindow } from './run-rule-window.js';
import type { ScanState } from './scan-state.js';
import { type OutputShapes, type StateShapes, shapeMask, withoutJsonRefuted } from './shape-masks.js';
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
 *
 * On a line longer than `longLine` a hit's gates are first read on a probe, a bounded slice around the hit
 * (`Tiles.probe`), and the line is made a tile only when the probe cannot decide: each check asked there has a declared
 * reach (`boundedCheck`, `check-reach.test.ts`) or is a run whose end is seen inside the probe. Measured (docs/
 * benchmarks.md, session 28, helper tilebound): the 42 large decoded tiles stay, cut by rules whose checks have no
 * declared reach yet.
 */

/** What the scanner lends a byte scan: its automata and its rules. */
export interface ByteScanContext {
  readonly automaton: KeywordAutomaton<CompiledRule>;
  readonly nameKeywords: NameKeywords<CompiledRule>;
  readonly compiled: readonly CompiledRule[];
  /** Per automaton state, which rules of its keywords a hit's name parse lets through (`shape-masks.ts`). */
  readonly shapes: StateShapes;
  /** About how many bytes a tile holds (whole lines, so more when a line is longer). */
  readonly tileBytes: number;
  /** A hit's line longer than this is read through a probe first (`Tiles.probe`); tests cut it. */
  readonly longLine: number;
  /** How many units either side of its hit a probe holds. */
  readonly probeUnits: number;
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

  /**
   * The probe: `[probeStart, probeEnd)` of the text, at most `probeUnits` either side of a hit on a long line, not
   * whole lines. A check asked on it decides as on the whole text only when every unit it reads lies inside, or past
   * an end the probe shares with the text: each use below proves that from the check's declared reach or from where
   * its run of characters stopped.
   */
  probeText = '';
  probeStart = 0;
  probeEnd = -1;
  probeGates = new GateCheck('');
  /** The latest long-line question's line, `[lineStart, lineEnd)` (its line feed excluded). */
  private lineStart = -1;
  private lineEnd = -2;

  constructor(
    readonly bytes: Buffer,
    private readonly size: number,
    private readonly longLine: number,
    private readonly probeUnits: number,
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

  /** Whether the tile holds the hit `[at, after)`, as `cover` would keep it. */
  holds(at: number, after: number): boolean {
    return at >= this.start && (after < this.end || this.end === this.bytes.length);
  }

  /**
   * Whether the hit at `at` is on a line longer than `longLine`, whose tile would be a large string (a fresh mapping
   * faulted in page by page, and on a minified line holding non-ASCII text a megabyte decoded); the line's bounds are
   * found once per line.
   */
  onLongLine(at: number): boolean {
    if (at < this.lineStart || at > this.lineEnd) {
      const { bytes } = this;
      this.lineStart = at === 0 ? 0 : bytes.lastIndexOf(10, at - 1) + 1;
      const lineFeed = bytes.indexOf(10, at);
      this.lineEnd = lineFeed === -1 ? bytes.length : lineFeed;
    }
    return this.lineEnd - this.lineStart > this.longLine;
  }

  /** Makes the probe hold `probeUnits` either side of the hit `[at, after)`, or up to the text's ends. */
  probe(at: number, after: number): void {
    const { bytes, probeUnits } = this;
    const holds =
      (this.probeStart === 0 || at - this.probeStart >= probeUnits) &&
      (this.probeEnd === bytes.length || this.probeEnd - after >= probeUnits);
    if (holds && at >= this.probeStart && after <= this.probeEnd) return;
    this.probeStart = Math.max(0, at - probeUnits);
    this.probeEnd = Math.min(bytes.length, after + probeUnits);
    this.probeText = this.textOf(this.probeStart, this.probeEnd);
    this.probeGates = new GateCheck(this.probeText);
  }

  /** Whether a probe read of the units before `at` (relative to the probe) up to `back` of them is the text's own. */
  readsBack(at: number, back: number): boolean {
    return this.probeStart === 0 || at >= back;
  }

  /** Whether a probe read up to the unit `last` (relative to the probe) is the text's own. */
  readsTo(last: number): boolean {
    return last < this.probeText.length || this.probeEnd === this.bytes.length;
  }

  /** Makes the tile hold the line of the hit `[at, after)` (hits come in order). */
  cover(at: number, after: number): void {
    const { bytes } = this;
    if (this.holds(at, after)) return;
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
  const tiles = new Tiles(bytes, context.tileBytes, context.longLine, context.probeUnits, units);
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
  const { automaton, nameKeywords, shapes } = context;
  const { outputs } = automaton;
  for (let hit = 0; hit < found.count; hit++) {
    const last = found.ends[hit]!;
    const state = found.states[hit]!;
    const keywords = outputs[state]!;
    const masks = shapes.of(state);
    for (let k = 0; k < keywords.length; k++) {
      const keyword = keywords[k]!;
      const at = last - keyword.length + 1;
      if (keyword.nameWord) nameKeywords.forEachBeforeBytes(walk, bytes, at, openNamed, hits);
      const masked = masks[k]!;
      let mask = -1;
      if (masked !== null && !allDropped(keyword.items, hits, at)) mask = hitMask(masked, tiles, at, last + 1);
      const { items } = keyword;
      for (let i = 0; i < items.length; i++) {
        const compiled = items[i]!;
        if ((mask & (1 << i)) !== 0 && at >= scannedUntil[compiled.index]!)
          openWindow(compiled, at, last + 1, hits, masked !== null);
      }
    }
  }
}

/**
 * The shape mask of a hit `[at, after)` (`shapeMask`, `withoutJsonRefuted`), read on the probe when the hit's line
 * is long and the probe holds every unit the mask reads: the name's run, the separator and the value's start stop
 * inside it (each is a run read up to its first other character), and the JSON look back fits before the hit.
 */
function hitMask(masked: OutputShapes, tiles: Tiles, at: number, after: number): number {
  if (!tiles.holds(at, after) && tiles.onLongLine(at)) {
    tiles.probe(at, after);
    const from = after - tiles.probeStart;
    const gates = tiles.probeGates;
    const text = tiles.probeText;
    const separator = gates.separatorAfter(from);
    const last = masked.value === null ? separator : valueAt(text, separator);
    if (tiles.readsTo(last) && tiles.readsBack(from, JSON_VALUE_LOOK_BACK)) {
      const mask = shapeMask(masked, text, from, gates.nameEnd(from), separator);
      return withoutJsonRefuted(masked, mask, gates, from);
    }
  }
  tiles.cover(at, after);
  const from = after - tiles.start;
  const { gates } = tiles;
  const mask = shapeMask(masked, tiles.text, from, gates.nameEnd(from), gates.separatorAfter(from));
  return withoutJsonRefuted(masked, mask, gates, from);
}

/**
 * Whether the window of a generic line rule at `at` is one the hit's line drops (`dropsLineWindow`). Only a made rule
 * is generic (a lazy one is made at its first gate passed), so asking makes none.
 */
function dropped(compiled: CompiledRule, hits: ByteHits, at: number): boolean {
  return !compiled.block && compiled.outline.generic === true && dropsLineWindow(hits, compiled.rule, at);
}

/** Whether every rule of a hit's keyword is one whose window the hit's line drops (`dropped`). */
function allDropped(items: readonly CompiledRule[], hits: ByteHits, at: number): boolean {
  for (let i = 0; i < items.length; i++) if (!dropped(items[i]!, hits, at)) return false;
  return true;
}

/**
 * `SecretScanner.openWindow` for a hit of `compiled`'s keyword at `bytes[at, after)`, its gates read on a tile;
 * `shaped` when its bit in the hit's shape mask was set (read on the same tile, which covers the hit still).
 */
function openWindow(compiled: CompiledRule, at: number, after: number, hits: ByteHits, shaped = false) {
  const { bytes, tiles } = hits;
  // Before the gates: a window the line would drop anyway needs no tile (see `dropsLineWindow`).
  if (dropped(compiled, hits, at)) return;
  const { gate, gateReach } = compiled;
  if (gate !== undefined && gateReach >= 0 && !(at >= tiles.start && after < tiles.end)) {
    // A gate that reads at most `gateReach` units from the hit's end, tested on those alone where no tile holds the
    // hit yet (`gate-reach.ts`); one more unit, as `UnitBytes.decode` leaves out a surrogate pair's first half at the end.
    gate.lastIndex = 0;
    if (!gate.test(tiles.textOf(after, Math.min(bytes.length, after + gateReach + 1)))) return;
  } else if (compiled.gateCheck !== undefined || gate !== undefined) {
    // On a long line the probe decides when it can, and the line is made a tile only when it cannot.
    const verdict =
      tiles.holds(at, after) || !tiles.onLongLine(at) ? UNKNOWN : probeVerdict(compiled, tiles, at, after, shaped);
    if (verdict === 0) return;
    if (verdict === UNKNOWN) {
      tiles.cover(at, after);
      if (!opensAt(compiled, tiles.text, after - tiles.start, tiles.gates, shaped)) return;
    }
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

/** A probe's verdict when the probe cannot tell (`probeVerdict`). */
const UNKNOWN = -1;

/**
 * Whether the gates of `compiled` open the hit `[at, after)` (1) or turn it down (0), read on the probe in `opensAt`'s
 * order; `UNKNOWN` when the probe cannot tell: a check without a declared reach (`boundedCheck`), a run that reaches
 * the probe's end, a quoted value or call argument to read, a regex without a bounded reach (`gate-reach.ts`).
 */
function probeVerdict(compiled: CompiledRule, tiles: Tiles, at: number, after: number, shaped: boolean): number {
  tiles.probe(at, after);
  const from = after - tiles.probeStart;
  const text = tiles.probeText;
  const gates = tiles.probeGates;
  const { gate, gateShape, gateCheck, regexReach } = compiled;
  if (gateShape !== undefined && !shaped) {
    // `shapeAllows` reads the name's run, the separator, and the value's start when the shape reads it.
    const separator = gates.separatorAfter(from);
    const last = gateShape.value === undefined ? separator : valueAt(text, separator);
    if (!tiles.readsTo(last)) return UNKNOWN;
    if (!shapeAllows(gateShape, text, from, gates.nameEnd(from), separator)) return 0;
  }
  if (gateCheck !== undefined) {
    const reach = checkReachOf(gateCheck);
    if (reach === undefined || !tiles.readsBack(from, reach.back) || !tiles.readsTo(from + reach.ahead - 1))
      return UNKNOWN;
    // With a shape, `GateCheck.passes` asks the JSON look back before such a check.
    if (gateShape !== undefined && isRefutedInJsonValue(gateCheck)) {
      if (!tiles.readsBack(from, JSON_VALUE_LOOK_BACK)) return UNKNOWN;
      if (gates.inJsonValueAt(from)) return 0;
    }
    if (!gateCheck(text, from)) return 0;
  }
  if (gateShape !== undefined && (gateShape.quoted !== undefined || gateShape.call)) {
    const separator = gates.separatorAfter(from);
    if (!tiles.readsTo(separator)) return UNKNOWN;
    const { quoted } = gateShape;
    if (quoted !== undefined) {
      if (!tiles.readsTo(valueAt(text, separator) + QUOTED_VALUE_REACH - 1)) return UNKNOWN;
      if (gates.rejectsQuotedAt(from, quoted)) return 0;
    }
    if (gateShape.call && text.charCodeAt(separator) === 44) {
      if (!tiles.readsBack(from, Math.max(JSON_VALUE_LOOK_BACK, CALL_ARGUMENT_LOOK_BACK))) return UNKNOWN;
      if (!gates.callArgumentAt(from)) return 0;
    }
  }
  if (gate === undefined) return 1;
  // The regex reads `regexReach` units from the hit's end at most; one more kept as a margin.
  if (regexReach < 0 || !tiles.readsTo(from + regexReach)) return UNKNOWN;
  gate.lastIndex = from;
  return gate.test(text) ? 1 : 0;
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
