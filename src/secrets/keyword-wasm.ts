import type { HitConditions } from './hit-context.js';
import type { Accepting, KeywordAutomaton } from './prefilter.js';
import { type Code, CodeWriter, op, type WasmApi, type WasmMemory, wasmApi, wasmModule } from './wasm-code.js';

/**
 * `KeywordHits.findBytes`'s loop in WebAssembly: the same automaton walk over bytes, the same hits in the same order.
 * In V8's optimized JavaScript each byte's step is three bounds-checked typed-array reads and the loop's own checks,
 * about 3.8 ns a byte with two streams; here memory reads need no bounds check, and four streams run side by side in
 * segments, as `KeywordHits.segment` runs two (each after the first started from the first state `depth` bytes before
 * its part, which gives the state the whole text gives there; their hits recorded apart and moved back in order).
 *
 * The module's memory: the byte classes (each column times two, the byte offset in a row), the state and offset where
 * a call stopped, the hit record (states, then ends), a window of the text copied in, then the automaton's table and
 * its accepting states for the text's path, copied in when they change. Texts are copied a window at a time (a copy
 * costs about 0.1 ns a byte) so that the memory never grows with a large file: views of it stay valid.
 */

/** Hits a call records at most (as `KeywordHits`). */
export const CAPACITY = 8192;
/** Streams side by side in a segment. */
const STREAMS = 4;
/** Bytes of each stream of a segment. */
export const STREAM_BYTES = 1024;
/** Bytes of text copied in per call of the module's function: a whole number of segments (`windowOf`). */
const WINDOW = 64 * 1024;

/**
 * Bytes copied in on either side of a window, so that a hit's condition (`hit-context.ts`: up to 90 characters after
 * a keyword in the built-in rules, 25 before) is read in the module; a position past these is left to JavaScript.
 */
const MARGIN = 128;

const RESULT = 256;
const HIT_STATES = 1024;
const HIT_ENDS = HIT_STATES + 4 * CAPACITY;
const TEXT = HIT_ENDS + 4 * CAPACITY;
const DELTA = TEXT + WINDOW + 2 * MARGIN + 64;
const PAGE = 65536;
/**
 * The memory's pages from the start, enough for the built-in rules' table and conditions (about 12 pages): growing a
 * memory detaches its old buffer, and V8's first detach in an isolate throws away every compiled function that reads
 * a typed array (the scan's whole hot path, compiled again: about 20 functions a thread, `--trace-deopt`'s "code
 * dependencies"). Untouched pages cost nothing; more rules (custom ones) still grow it.
 */
const PAGES = 32;

// The function's parameters, then its locals.
const BASE = 0; // where the text's offset 0 would be in memory (the copy's start less its offset)
const P = 1; // the offset to start at, then the address read
const END = 2;
const STATE = 3; // the first stream's state
const FIRST = 4;
const ACCEPTS = 5;
const SHIFT = 6; // log2 of a row's width in bytes
const DEPTH = 7;
const COUNT = 8;
const LO = 9; // the addresses of the text copied in, `[LO, HI)`: the window and its margins
const HI = 10;
const STARTS = 11; // the conditions' tables (`HitConditions`): their checks, offsets and sets
const OFFSETS = 12;
const SETS = 13;
const PARAMS = 14;
const AFTER_BASE = 14; // BASE + 1: a hit's end offset is the address after it less this
const MID = 15;
const Q = 16;
const T = 17;
const MARK = 18; // a hit's accepting mark, then the address of its condition's first and last check
const CHECK = 19;
const CHECK_END = 20;
const AFTER = 21; // the address after a hit
const stateOf = (stream: number) => (stream === 0 ? STATE : 21 + stream);
const countOf = (stream: number) => 21 + STREAMS + stream;
const LOCALS = 8 + (STREAMS - 1) + STREAMS;

/** One step of `stream`, reading the byte at `pointer + offset`: `state = delta[(state << shift) | class[byte]]`. */
function step(code: CodeWriter, stream: number, pointer: number, offset: number): void {
  const state = stateOf(stream);
  code.emit(op.get(state), op.get(SHIFT), op.shl, op.get(pointer), op.load8(offset), op.load8(0), op.or);
  code.emit(op.load16(DELTA), op.set(state));
}

/**
 * Goes to the label `drop` (counted from outside what this emits) when the hit whose mark is in `MARK` and whose end
 * is `AFTER` has a condition that a byte copied in fails (`holdsInBytes`), else on. A position outside the copy ends
 * the checks with the hit kept: `KeywordHits.heldInBytes` checks every kept hit with a condition again, in full, so
 * the module only drops hits JavaScript would drop (their checks all must hold, in any order). The bare Discord
 * token's `.` was 78 % of the npm corpus's hits, nearly all dropped here now rather than recorded and dropped after.
 */
function dropUnheld(code: CodeWriter, drop: number): void {
  code.emit(op.block, op.get(MARK), op.const(2), op.ltU, op.brIf(0));
  // The condition's checks are `starts[mark - 2]` to `starts[mark - 1]`.
  code.emit(op.get(MARK), op.const(2), op.shl, op.get(STARTS), op.add, op.const(8), op.sub, op.tee(T));
  code.emit(op.load32(0), op.set(CHECK), op.get(T), op.load32(4), op.set(CHECK_END));
  code.emit(op.loop, op.get(CHECK), op.get(CHECK_END), op.geU, op.brIf(1));
  code.emit(op.get(AFTER), op.get(CHECK), op.const(2), op.shl, op.get(OFFSETS), op.add, op.load32(0), op.add);
  code.emit(op.tee(T), op.get(LO), op.ltU, op.brIf(1), op.get(T), op.get(HI), op.geU, op.brIf(1));
  code.emit(op.get(CHECK), op.const(8), op.shl, op.get(SETS), op.add, op.get(T), op.load8(0), op.add, op.load8(0));
  code.emit(op.eqz, op.brIf(drop + 2), op.get(CHECK), op.const(1), op.add, op.set(CHECK), op.br(0), op.end, op.end);
}

/**
 * Records `stream`'s hit if its state is accepting here and no byte copied in fails its condition: its state and `end`
 * (the address after it, on the stack).
 */
function recordIfAccepting(code: CodeWriter, stream: number, end: readonly Code[]): void {
  const state = stateOf(stream);
  const count = countOf(stream);
  code.emit(op.get(state), op.get(FIRST), op.geU, op.if);
  code.emit(op.get(ACCEPTS), op.get(state), op.add, op.load8(0), op.tee(MARK), op.if, ...end, op.set(AFTER));
  code.emit(op.block);
  dropUnheld(code, 0);
  code.emit(op.get(count), op.const(2), op.shl, op.tee(T), op.get(state), op.store(HIT_STATES));
  code.emit(op.get(T), op.get(AFTER), op.get(AFTER_BASE), op.sub, op.store(HIT_ENDS));
  code.emit(op.get(count), op.const(1), op.add, op.set(count));
  code.emit(op.end, op.end, op.end);
}

/** Streams 1 on start from the first state `depth` bytes before their part, recording nothing. */
function warmStreams(code: CodeWriter, quarter: number): void {
  for (let stream = 1; stream < STREAMS; stream++) {
    code.emit(op.const(0), op.set(stateOf(stream)));
    code.emit(op.get(P), op.const(stream * quarter), op.add, op.tee(T), op.get(DEPTH), op.sub, op.set(Q));
    code.emit(op.block, op.get(Q), op.get(T), op.geU, op.brIf(0), op.loop);
    step(code, stream, Q, 0);
    code.emit(op.get(Q), op.const(1), op.add, op.tee(Q), op.get(T), op.ltU, op.brIf(0), op.end, op.end);
    code.emit(op.get(COUNT), op.const(stream * quarter), op.add, op.set(countOf(stream)));
  }
  code.emit(op.get(COUNT), op.set(countOf(0)));
}

/**
 * Whole segments while `depth <= quarter`, one remains and its hits fit: the streams step together until one of
 * them may be at a hit (the states or'ed reach `first`: every state at or over it does, and one under it seldom),
 * each records its own, and at the segment's end the later streams' hits are moved down after the first's.
 */
function segments(code: CodeWriter, quarter: number): void {
  const size = STREAMS * quarter;
  code.emit(op.block, op.get(DEPTH), op.const(quarter), op.gtU, op.brIf(0), op.loop);
  code.emit(op.get(END), op.get(P), op.sub, op.const(size), op.ltU, op.brIf(1));
  code.emit(op.get(COUNT), op.const(CAPACITY - size), op.geU, op.brIf(1));
  warmStreams(code, quarter);
  code.emit(op.get(P), op.tee(Q), op.const(quarter), op.add, op.set(MID));
  code.emit(op.block, op.loop, op.get(Q), op.get(MID), op.geU, op.brIf(1), op.loop);
  for (let stream = 0; stream < STREAMS; stream++) step(code, stream, Q, stream * quarter);
  code.emit(op.get(Q), op.const(1), op.add, op.set(Q), op.get(STATE));
  for (let stream = 1; stream < STREAMS; stream++) code.emit(op.get(stateOf(stream)), op.or);
  code.emit(op.get(FIRST), op.ltU, op.get(Q), op.get(MID), op.ltU, op.and, op.brIf(0), op.end);
  for (let stream = 0; stream < STREAMS; stream++)
    recordIfAccepting(code, stream, [op.get(Q), op.const(stream * quarter), op.add]);
  code.emit(op.br(0), op.end, op.end);
  for (let stream = 1; stream < STREAMS; stream++) {
    // count of this stream's hits: countOf(stream) - (COUNT + stream * quarter), moved to countOf(0).
    for (const region of [HIT_STATES, HIT_ENDS]) {
      code.emit(op.get(countOf(0)), op.const(2), op.shl, op.const(region), op.add);
      code.emit(op.get(COUNT), op.const(stream * quarter), op.add, op.tee(T), op.const(2), op.shl);
      code.emit(op.const(region), op.add, op.get(countOf(stream)), op.get(T), op.sub, op.const(2), op.shl, op.copy);
    }
    code.emit(op.get(countOf(0)), op.get(countOf(stream)), op.add, op.get(T), op.sub, op.set(countOf(0)));
  }
  code.emit(op.get(countOf(0)), op.set(COUNT), op.get(stateOf(STREAMS - 1)), op.set(STATE));
  code.emit(op.get(P), op.const(size), op.add, op.set(P), op.br(0), op.end, op.end);
}

/** One stream to the end, or until the record is full (`KeywordHits.findBytes`'s own loop). */
function oneStream(code: CodeWriter): void {
  code.emit(op.block, op.loop, op.get(P), op.get(END), op.geU, op.brIf(1), op.loop);
  step(code, 0, P, 0);
  code.emit(op.get(P), op.const(1), op.add, op.set(P));
  code.emit(op.get(STATE), op.get(FIRST), op.ltU, op.get(P), op.get(END), op.ltU, op.and, op.brIf(0), op.end);
  code.emit(op.get(STATE), op.get(FIRST), op.ltU, op.brIf(0));
  code.emit(op.get(ACCEPTS), op.get(STATE), op.add, op.load8(0), op.tee(MARK), op.eqz, op.brIf(0));
  code.emit(op.get(P), op.set(AFTER));
  dropUnheld(code, 0);
  code.emit(op.get(COUNT), op.const(2), op.shl, op.tee(T), op.get(STATE), op.store(HIT_STATES));
  code.emit(op.get(T), op.get(P), op.get(AFTER_BASE), op.sub, op.store(HIT_ENDS));
  code.emit(op.get(COUNT), op.const(1), op.add, op.tee(COUNT), op.const(CAPACITY), op.eq, op.brIf(1));
  code.emit(op.br(0), op.end, op.end);
}

/**
 * `find(base, from, until, state, first, accepts, shift, depth, count, lo, hi, starts, offsets, sets)`: hits recorded
 * from slot `count` on, those whose condition fails on the copy `[lo, hi)` left out; returns the count after them,
 * with the state and offset where it stopped stored at `RESULT`.
 */
export function keywordLoopModule(quarter: number): Uint8Array<ArrayBuffer> {
  const code = new CodeWriter();
  code.emit(op.get(BASE), op.const(1), op.add, op.set(AFTER_BASE));
  code.emit(op.get(BASE), op.get(P), op.add, op.set(P), op.get(BASE), op.get(END), op.add, op.set(END));
  segments(code, quarter);
  oneStream(code);
  code.emit(op.const(RESULT), op.get(STATE), op.store(0), op.const(RESULT), op.get(P), op.get(BASE), op.sub);
  code.emit(op.store(4), op.get(COUNT), op.end);
  return wasmModule('find', PARAMS, LOCALS, code.bytes, PAGES);
}

type Find = (...args: number[]) => number;

const modules = new Map<number, object>();

/** The loop of `KeywordHits.findBytes` for one pass's record, in a module instance of its own. */
export class WasmKeywordLoop {
  states: Int32Array;
  ends: Int32Array;
  /** Where the last call stopped and the state there. */
  at = 0;
  state = 0;
  private readonly find: Find;
  private readonly memory: WasmMemory;
  private bytes: Uint8Array;
  private result: Int32Array;
  private automaton: KeywordAutomaton<unknown> | null = null;
  private accepting: Accepting | null = null;
  private accepts = 0;
  private conditions: HitConditions | null = null;
  /** Where the conditions' tables are (`STARTS`, `OFFSETS`, `SETS`). */
  private starts = 0;
  private offsets = 0;
  private sets = 0;
  private readonly window: number;

  /** `null` where this Node runs no WebAssembly (`--jitless`): the JavaScript loop is then used. */
  static make(quarter = STREAM_BYTES): WasmKeywordLoop | null {
    if (wasmApi === undefined) return null;
    let module = modules.get(quarter);
    if (module === undefined) {
      module = new wasmApi.Module(keywordLoopModule(quarter));
      modules.set(quarter, module);
    }
    return new WasmKeywordLoop(wasmApi, module, quarter);
  }

  private constructor(api: WasmApi, module: object, quarter: number) {
    const { exports } = new api.Instance(module, {});
    this.find = exports.find as Find;
    this.memory = exports.memory as WasmMemory;
    this.hold(DELTA + PAGE);
    const segment = STREAMS * quarter;
    this.window = Math.max(segment, WINDOW - (WINDOW % segment));
    this.bytes = new Uint8Array(0);
    this.result = new Int32Array(0);
    this.states = this.ends = this.result;
    this.views();
  }

  private views(): void {
    const { buffer } = this.memory;
    this.bytes = new Uint8Array(buffer);
    this.result = new Int32Array(buffer, RESULT, 2);
    this.states = new Int32Array(buffer, HIT_STATES, CAPACITY);
    this.ends = new Int32Array(buffer, HIT_ENDS, CAPACITY);
  }

  /**
   * Whether this loop runs `automaton`'s walk: its table is 16-bit, `accepting` is one of its own, and its rows are at
   * most 128 wide (each class is kept doubled in one byte; keywords are printable ASCII, so that always holds).
   */
  takes(automaton: KeywordAutomaton<unknown>, accepting: Accepting): boolean {
    return (
      automaton.delta instanceof Uint16Array &&
      automaton.shift <= 7 &&
      accepting.states.length << automaton.shift === automaton.delta.length
    );
  }

  /** `automaton`'s classes and table copied in, when another was in; then `accepting`'s states and conditions. */
  private load(automaton: KeywordAutomaton<unknown>, accepting: Accepting): void {
    if (automaton !== this.automaton) {
      const { delta, classes } = automaton as KeywordAutomaton<unknown> & { delta: Uint16Array };
      this.accepts = DELTA + delta.length * 2;
      this.hold(this.accepts + accepting.states.length);
      for (let byte = 0; byte < 256; byte++) this.bytes[byte] = classes[byte]! << 1;
      new Uint16Array(this.memory.buffer, DELTA, delta.length).set(delta);
      this.automaton = automaton;
      this.accepting = null;
      this.conditions = null;
    }
    if (accepting !== this.accepting) {
      this.bytes.set(accepting.states, this.accepts);
      this.accepting = accepting;
    }
    const { conditions } = accepting;
    if (conditions !== this.conditions) {
      this.starts = (this.accepts + accepting.states.length + 3) & ~3;
      this.offsets = this.starts + conditions.starts.length * 4;
      this.sets = this.offsets + conditions.offsets.length * 4;
      this.hold(this.sets + conditions.sets.length);
      new Int32Array(this.memory.buffer, this.starts, conditions.starts.length).set(conditions.starts);
      new Int32Array(this.memory.buffer, this.offsets, conditions.offsets.length).set(conditions.offsets);
      this.bytes.set(conditions.sets, this.sets);
      this.conditions = conditions;
    }
  }

  /** The memory grown to hold `bytes` bytes, and its views renewed, when it holds fewer. */
  private hold(bytes: number): void {
    const needed = Math.ceil(bytes / PAGE);
    if (needed <= this.memory.buffer.byteLength / PAGE) return;
    this.memory.grow(needed - this.memory.buffer.byteLength / PAGE);
    this.views();
  }

  /**
   * Runs the walk over `bytes[from, until)` from `state`, recording hits from the first slot until `until` or until
   * `CAPACITY` are held; returns how many, with `at` and `state` where it stopped. Only after `takes`.
   */
  run(
    automaton: KeywordAutomaton<unknown>,
    accepting: Accepting,
    bytes: Uint8Array,
    from: number,
    until: number,
    state: number,
  ): number {
    this.load(automaton, accepting);
    const { find, window } = this;
    const { first } = accepting;
    const shift = automaton.shift + 1;
    let count = 0;
    let at = from;
    while (at < until && count < CAPACITY) {
      const end = until - at > window ? at + window : until;
      // With `MARGIN` bytes either side where the text has them, for the hits' conditions.
      const lo = at > MARGIN ? at - MARGIN : 0;
      const hi = Math.min(bytes.length, end + MARGIN);
      this.bytes.set(bytes.subarray(lo, hi), TEXT);
      const { accepts, starts, offsets, sets } = this;
      const copied = TEXT + hi - lo;
      count = find(
        TEXT - lo,
        at,
        end,
        state,
        first,
        accepts,
        shift,
        automaton.depth,
        count,
        TEXT,
        copied,
        starts,
        offsets,
        sets,
      );
      state = this.result[0]!;
      at = this.result[1]!;
    }
    this.at = at;
    this.state = state;
    return count;
  }
}
