import { conditionsOf, FIRST_CONDITION, hitContext, holdsInBytes, holdsInText } from './hit-context.js';
import { STREAM_BYTES, WasmKeywordLoop } from './keyword-wasm.js';
import { type Accepting, acceptingOf, buildKeywordAutomaton, type KeywordAutomaton } from './prefilter.js';

/**
 * The prefilter's per-character pass, alone in a small function that records where keywords end; the scanner handles
 * those hits afterwards, in order. With the hit handling (windows, gates, rules) inlined into the loop, V8 optimized
 * one large function several times over in every short-lived scan (each keyword gate that read past the text's end
 * threw the optimized code away): in a history scan of a few thousand small texts those compilations cost more CPU
 * than the scan itself (rails v7.2.0..v8.0.0: 0.25 s of a 0.35 s first pass). This loop compiles in a moment and
 * never deoptimizes.
 */

/** Hits recorded before they are handled (the pass then continues where it stopped). */
const CAPACITY = 8192;
/** Bytes of each of the two streams of a segment of `findBytes` (see there). */
const HALF = 2048;
/** An automaton of no keyword, made as every other is (so of the same shape): see `KeywordHits`' constructor. */
const NO_KEYWORDS = buildKeywordAutomaton<unknown>([]);
const NONE_ACCEPTING = acceptingOf(NO_KEYWORDS.accepting);
/** One keyword, `.`, reported only before a letter: the warm-up's hits go through a condition and both its answers. */
const WARM_KEYWORDS = buildKeywordAutomaton([{ keywords: ['.'], item: 0 }]);
const WARM_ACCEPTING = acceptingOf(
  WARM_KEYWORDS.accepting.map((flag) => (flag === 1 ? FIRST_CONDITION : 0)),
  conditionsOf([{ context: hitContext([], ['a-z']), length: 1 }]),
);
const WARM_TEXT = 'a.b .c. ';
const WARM_BYTES = Buffer.from(WARM_TEXT, 'latin1');
/** Calls past the point where V8 starts keeping a function's type feedback (8 in Node 20's V8). */
const WARM_CALLS = 32;

/** What the WebAssembly loop is made with: bytes per stream of its four, and how many bytes are read before it is. */
export interface WasmOptions {
  readonly quarter: number;
  readonly after: number;
}

/**
 * The WebAssembly loop is made once a pass has read 4 MB of bytes in JavaScript, or at once when the text it is given
 * has that much still ahead: making it costs about 2 ms of CPU (V8 reserves its memory; the module is compiled once
 * per thread) and 3 ms more for its code, written the first time, which the loop wins back over about 2-3 MB. A short
 * scan (a repeat run's few files, the 2 MB identifier JSON row) pays none of it. A `scan --all` starts on its largest
 * file (12 MB in the npm corpus): read in JavaScript, its first 4 MB ran the JavaScript loop while V8 was still
 * compiling it, which then went cold; making the loop at once cut the CPU of scanning that file alone in a fresh
 * process to 0.87-0.93x (docs/benchmarks.md, "What a scan pays the first time it meets its content").
 */
const WASM: WasmOptions = { quarter: STREAM_BYTES, after: 4 << 20 };

export class KeywordHits {
  /** Per hit, the automaton's state after its last character, where its keywords are listed. */
  states: Int32Array;
  /** Per hit, the offset of its last character. */
  ends: Int32Array;
  count = 0;
  /** Bytes per stream of a two-stream segment (`findBytes`); smaller in tests, so short texts take that path. */
  readonly half: number;
  /** Where the pass stopped (every character before it read) and the automaton's state there. */
  at = 0;
  state = 0;
  /** The JavaScript loops' record; the WebAssembly loop's is in its own memory. */
  private readonly ownStates = new Int32Array(CAPACITY);
  private readonly ownEnds = new Int32Array(CAPACITY);
  /** `findBytes`'s loop in WebAssembly once made (`WASM`). */
  private wasm: WasmKeywordLoop | null = null;
  /** Bytes `findBytes` reads in JavaScript before the WebAssembly loop is made; `Infinity` for never. */
  private wasmAfter: number;
  private readonly quarter: number;

  /** `half`: see `half`; `wasm`: see `WASM`, or `null` for the JavaScript loop only (smaller in tests, as `half`). */
  constructor(half = HALF, wasm: WasmOptions | null = WASM) {
    this.half = Math.min(half, CAPACITY >> 2);
    this.quarter = Math.min(wasm?.quarter ?? STREAM_BYTES, CAPACITY >> 3);
    this.wasmAfter = wasm === null ? Number.POSITIVE_INFINITY : wasm.after;
    this.states = this.ownStates;
    this.ends = this.ownEnds;
    // Each pass run over nothing, so the code after its loop has type feedback before the loop is first optimized.
    // The first large text has the loop compiled mid-pass (on-stack replacement); without feedback for what follows
    // the loop, that compiled loop was entered and left again at its end on later calls: from one run to the next,
    // 0 to 1,677 deoptimizations a scan of the npm corpus (`--trace-deopt`), in each scanning thread's isolate. V8
    // keeps no feedback for a function's first few calls, so one call is not enough.
    // The hits of a condition are looked at too, so that its calls have their feedback as well.
    const empty = new Uint8Array(0);
    for (let round = 0; round < WARM_CALLS; round++) {
      this.find(NO_KEYWORDS, NONE_ACCEPTING, '', 0, 0, 0);
      this.findBytes(NO_KEYWORDS, NONE_ACCEPTING, empty, 0, 0, 0);
      this.find(WARM_KEYWORDS, WARM_ACCEPTING, WARM_TEXT, 0, WARM_TEXT.length, 0);
      this.findBytes(WARM_KEYWORDS, WARM_ACCEPTING, WARM_BYTES, 0, WARM_BYTES.length, 0);
    }
    this.count = 0;
    this.at = 0;
    this.state = 0;
  }

  /**
   * Runs `automaton` over `text[from, until)` from `state`, recording hits until `until` or until `CAPACITY` of them
   * are held: then `at` says where to go on from. `accepting` is the automaton's own, or a copy without the states
   * whose keywords only rules exempt for this text's path use. A state that is not accepting here is told from the
   * others by its number alone, most of the time (see `Accepting.first`), so most characters cost one table read and
   * one comparison. That step is a loop of its own, inside the loop that records hits: with the recording in the same
   * loop V8's optimized code kept the automaton's state on the stack (a store and a load in the chain of table reads
   * each character waits on); the inner loop has few enough live values for the state to stay in a register. A hit
   * of a state with a condition is kept only where the characters around it hold it (`hit-context.ts`): its rules'
   * gates would turn down every other.
   */
  find(
    automaton: KeywordAutomaton<unknown>,
    accepting: Accepting,
    text: string,
    from: number,
    until: number,
    state: number,
  ): void {
    const { delta, classes, shift } = automaton;
    const { states: accepts, first } = accepting;
    this.states = this.ownStates;
    this.ends = this.ownEnds;
    const { states, ends } = this;
    let count = 0;
    let i = from;
    while (i < until) {
      do {
        state = delta[(state << shift) | classes[text.charCodeAt(i)]!]!;
        i++;
      } while (state < first && i < until);
      if (state < first || accepts[state] === 0) continue;
      states[count] = state;
      ends[count] = i - 1;
      if (++count === CAPACITY) break;
    }
    this.count = accepting.conditions.any ? this.heldInText(accepting, text, count) : count;
    this.at = i;
    this.state = state;
  }

  /**
   * `find` over bytes read one per character (ASCII, or UTF-8 read as Latin-1): the same hits at the same offsets as
   * over their one-byte string, without making that string. In WebAssembly (`keyword-wasm.ts`) where it runs, else
   * `findBytesInJs`.
   */
  findBytes(
    automaton: KeywordAutomaton<unknown>,
    accepting: Accepting,
    bytes: Uint8Array,
    from: number,
    until: number,
    state: number,
  ): void {
    // Made once the pass has read `WASM.after` bytes, or when this text has that many still ahead.
    const wasm = this.wasm ?? (this.wasmAfter <= bytes.length - from ? this.makeWasm() : null);
    if (wasm === null || !wasm.takes(automaton, accepting)) {
      this.findBytesInJs(automaton, accepting, bytes, from, until, state);
      // What the pass read, not what it was asked: a text dense with hits is asked again from each full batch's end
      // (a 2 MB file of 160,000 hits asked for 20 times its length, and made the loop it never gained from).
      this.wasmAfter -= this.at - from;
      return;
    }
    const count = wasm.run(automaton, accepting, bytes, from, until, state);
    // The record is the module's memory, whose views a larger automaton's table renews.
    this.states = wasm.states;
    this.ends = wasm.ends;
    this.count = accepting.conditions.any ? this.heldInBytes(accepting, bytes, count) : count;
    this.at = wasm.at;
    this.state = wasm.state;
  }

  /**
   * A pass over about `bytes` bytes follows (a thread's queue of files, `scanQueue`): when they are enough to make the
   * WebAssembly loop, it is made at the first text rather than after `WASM.after` bytes read in JavaScript. A thread
   * that takes the smallest files first read its first 4 MB in the JavaScript loop, which V8 then compiled for it
   * alone (about 25 ms of CPU a two-thread scan of the npm corpus, docs/benchmarks.md, session 31).
   */
  expectBytes(bytes: number): void {
    if (this.wasm === null && bytes >= this.wasmAfter) this.wasmAfter = 0;
  }

  /** The WebAssembly loop, made once the pass has read `WASM.after` bytes in JavaScript; `null` where none runs. */
  private makeWasm(): WasmKeywordLoop | null {
    this.wasm = WasmKeywordLoop.make(this.quarter);
    if (this.wasm === null) this.wasmAfter = Number.POSITIVE_INFINITY;
    return this.wasm;
  }

  /** `findBytes`'s loop in JavaScript, of its own so each loop stays monomorphic: two streams per segment. */
  private findBytesInJs(
    automaton: KeywordAutomaton<unknown>,
    accepting: Accepting,
    bytes: Uint8Array,
    from: number,
    until: number,
    state: number,
  ): void {
    const { delta, classes, shift } = automaton;
    const { states: accepts, first } = accepting;
    this.states = this.ownStates;
    this.ends = this.ownEnds;
    const { states, ends, half } = this;
    let count = 0;
    let i = from;
    if (automaton.depth <= half) {
      while (until - i >= 2 * half && count + 2 * half < CAPACITY) {
        count = this.segment(automaton, accepting, bytes, i, count, state);
        i += 2 * half;
        state = this.state;
      }
    }
    while (i < until) {
      do {
        state = delta[(state << shift) | classes[bytes[i]!]!]!;
        i++;
      } while (state < first && i < until);
      if (state < first || accepts[state] === 0) continue;
      states[count] = state;
      ends[count] = i - 1;
      if (++count === CAPACITY) break;
    }
    this.count = accepting.conditions.any ? this.heldInBytes(accepting, bytes, count) : count;
    this.at = i;
    this.state = state;
  }

  /**
   * Of the `count` hits just recorded, keeps those of a state with no condition and those whose condition the
   * characters around them hold (`hit-context.ts`); returns how many are kept. Apart from the loop, which stays as it
   * was: a check inside it, even of one character, made the loop about 7 % slower on the npm corpus than the hits it
   * spared cost.
   */
  private heldInText(accepting: Accepting, text: string, count: number): number {
    const { states: marks, conditions } = accepting;
    const { states, ends } = this;
    let kept = 0;
    for (let hit = 0; hit < count; hit++) {
      const state = states[hit]!;
      const end = ends[hit]!;
      const mark = marks[state]!;
      if (mark !== 1 && !holdsInText(conditions, mark, text, end + 1)) continue;
      states[kept] = state;
      ends[kept++] = end;
    }
    return kept;
  }

  /** `heldInText` over bytes read one per character: a copy, like `findBytes`, so each stays monomorphic. */
  private heldInBytes(accepting: Accepting, bytes: Uint8Array, count: number): number {
    const { states: marks, conditions } = accepting;
    const { states, ends } = this;
    let kept = 0;
    for (let hit = 0; hit < count; hit++) {
      const state = states[hit]!;
      const end = ends[hit]!;
      const mark = marks[state]!;
      if (mark !== 1 && !holdsInBytes(conditions, mark, bytes, end + 1)) continue;
      states[kept] = state;
      ends[kept++] = end;
    }
    return kept;
  }

  /**
   * `findBytes` over `bytes[from, from + 2 * half)`, its hits recorded from `count` on; returns the count after them,
   * with the state at the end in `this.state`. Each byte's step waits on the table read of the byte before, so one
   * stream of reads leaves the processor idle most of the time: two run side by side, the first over the first half
   * from `state`, the second over the second half from the first state, started `depth` bytes before its half (the
   * state there is then what it is after the whole text: a keyword's length decides it). The second stream's hits
   * are stored `half` slots on (the first records at most one per byte) and moved back after the first's.
   */
  private segment(
    automaton: KeywordAutomaton<unknown>,
    accepting: Accepting,
    bytes: Uint8Array,
    from: number,
    count: number,
    state: number,
  ): number {
    const { delta, classes, shift, depth } = automaton;
    const { states: accepts, first } = accepting;
    const { states, ends, half } = this;
    const mid = from + half;
    let other = 0;
    let j = mid - depth;
    for (; j < mid; j++) other = delta[(other << shift) | classes[bytes[j]!]!]!;
    const second = count + half;
    let count2 = second;
    let i = from;
    while (i < mid) {
      do {
        state = delta[(state << shift) | classes[bytes[i]!]!]!;
        other = delta[(other << shift) | classes[bytes[j]!]!]!;
        i++;
        j++;
      } while (state < first && other < first && i < mid);
      if (state >= first && accepts[state] !== 0) {
        states[count] = state;
        ends[count++] = i - 1;
      }
      if (other >= first && accepts[other] !== 0) {
        states[count2] = other;
        ends[count2++] = j - 1;
      }
    }
    states.copyWithin(count, second, count2);
    ends.copyWithin(count, second, count2);
    this.state = other;
    return count + count2 - second;
  }
}
