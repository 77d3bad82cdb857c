import { type Accepting, acceptingOf, buildKeywordAutomaton, FOLD, type KeywordAutomaton } from './prefilter.js';

/**
 * The prefilter's per-character pass, alone in a small function that records where keywords end; the scanner handles
 * those hits afterwards, in order. With the hit handling (windows, gates, rules) inlined into the loop, V8 optimized
 * one large function several times over in every short-lived scan (each keyword gate that read past the text's end
 * threw the optimized code away): in a history scan of a few thousand small texts those compilations cost more CPU
 * than the scan itself (rails v7.2.0..v8.0.0: 0.25 s of a 0.35 s first pass). This loop compiles in a moment and
 * never deoptimizes.
 */

/** Hits recorded before they are handled (the pass then continues where it stopped), per stream of `findBytes`. */
const CAPACITY = 4096;
/**
 * The least and the most bytes `findBytes` reads as two streams in one call. Most of the corpus's bytes are in files
 * of hundreds of kilobytes: each call reads at most this many, so both streams' hits fit in their records as a rule.
 */
const SPLIT_BYTES = 256;
const CHUNK_BYTES = 1 << 17;
/** An automaton of no keyword, made as every other is (so of the same shape): see `KeywordHits`' constructor. */
const NO_KEYWORDS = buildKeywordAutomaton<unknown>([]);
const NONE_ACCEPTING = acceptingOf(NO_KEYWORDS.accepting);
/** An automaton of one keyword, and a text of it: the two streams' warm-up reads the whole of their code. */
const ONE_KEYWORD = buildKeywordAutomaton<unknown>([{ keywords: ['a'], item: null }]);
const ONE_ACCEPTING = acceptingOf(ONE_KEYWORD.accepting);
/** Calls past the point where V8 starts keeping a function's type feedback (8 in Node 20's V8). */
const WARM_CALLS = 32;

export class KeywordHits {
  /** Per hit, the automaton's state after its last character, where its keywords are listed. */
  readonly states: Int32Array;
  /** Per hit, the offset of its last character. */
  readonly ends: Int32Array;
  count = 0;
  /** Where the pass stopped (every character before it read) and the automaton's state there. */
  at = 0;
  state = 0;
  /** Whether the last byte pass filled its record: then the next one reads one stream (no work thrown away). */
  private dense = false;

  /** `capacity`: hits a stream records before the pass stops (tests make it small). */
  constructor(readonly capacity = CAPACITY) {
    this.states = new Int32Array(2 * capacity);
    this.ends = new Int32Array(2 * capacity);
    // Each pass run over nothing, so the code after its loop has type feedback before the loop is first optimized.
    // The first large text has the loop compiled mid-pass (on-stack replacement); without feedback for what follows
    // the loop, that compiled loop was entered and left again at its end on later calls: from one run to the next,
    // 0 to 1,677 deoptimizations a scan of the npm corpus (`--trace-deopt`), in each scanning thread's isolate. V8
    // keeps no feedback for a function's first few calls, so one call is not enough. The bytes' pass is also run over
    // enough nothing to read it as two streams.
    const empty = new Uint8Array(0);
    const blank = new Uint8Array(SPLIT_BYTES).fill(97);
    for (let round = 0; round < WARM_CALLS; round++) {
      this.find(NO_KEYWORDS, NONE_ACCEPTING, '', 0, 0, 0);
      this.findBytes(NO_KEYWORDS, NONE_ACCEPTING, empty, 0, 0, 0);
      this.findBytes(ONE_KEYWORD, ONE_ACCEPTING, blank, 0, SPLIT_BYTES, 0);
    }
  }

  /**
   * Runs `automaton` over `text[from, until)` from `state`, recording hits until `until` or until `CAPACITY` of them
   * are held (`capacity`): then `at` says where to go on from. `accepting` is the automaton's own, or a copy without the states
   * whose keywords only rules exempt for this text's path use. A state that is not accepting here is told from the
   * others by its number alone, most of the time (see `Accepting.first`), so most characters cost one table read and
   * one comparison.
   */
  find(
    automaton: KeywordAutomaton<unknown>,
    accepting: Accepting,
    text: string,
    from: number,
    until: number,
    state: number,
  ): void {
    const { delta } = automaton;
    const { states: accepts, first } = accepting;
    const { states, ends } = this;
    let count = 0;
    let i = from;
    while (i < until) {
      state = delta[(state << 7) | FOLD[text.charCodeAt(i)]!]!;
      i++;
      if (state < first || accepts[state] === 0) continue;
      states[count] = state;
      ends[count] = i - 1;
      if (++count === this.capacity) break;
    }
    this.count = count;
    this.at = i;
    this.state = state;
  }

  /**
   * `find` over bytes read one per character (ASCII, or UTF-8 read as Latin-1): the same hits at the same offsets as
   * over their one-byte string, without making that string. Loops of their own, so each stays monomorphic.
   *
   * A long range is read as two streams at once, its first and second half, each step of one independent of the
   * other's: the loop waits on one table read per byte, each on the last, and two chains of reads keep the processor
   * busier than one. The second stream starts from the automaton's first state `longest` bytes before its half, as
   * the state after a byte is the longest keyword prefix that ends there, which those bytes hold. Its hits follow the
   * first stream's; when the first fills its record, the second's work is dropped and the next pass reads one stream.
   */
  findBytes(
    automaton: KeywordAutomaton<unknown>,
    accepting: Accepting,
    bytes: Uint8Array,
    from: number,
    until: number,
    state: number,
  ): void {
    const end = Math.min(until, from + CHUNK_BYTES);
    const half = (end - from) >> 1;
    if (this.dense || 2 * half < SPLIT_BYTES || half < automaton.longest)
      this.run(automaton, accepting, bytes, from, until, state, 0, this.capacity);
    else this.runTwo(automaton, accepting, bytes, from, from + half, end, state);
    this.dense = this.count >= this.capacity;
  }

  /** Two streams over `[from, mid)` and `[mid, end)` (see `findBytes`). */
  private runTwo(
    automaton: KeywordAutomaton<unknown>,
    accepting: Accepting,
    bytes: Uint8Array,
    from: number,
    mid: number,
    end: number,
    state: number,
  ): void {
    const { delta, longest } = automaton;
    const { states: accepts, first } = accepting;
    const { states, ends, capacity } = this;
    let other = 0;
    for (let k = mid - longest; k < mid; k++) other = delta[(other << 7) | FOLD[bytes[k]!]!]!;
    let count = 0;
    let more = capacity;
    let i = from;
    let j = mid;
    let full = false;
    while (i < mid) {
      state = delta[(state << 7) | FOLD[bytes[i]!]!]!;
      other = delta[(other << 7) | FOLD[bytes[j]!]!]!;
      i++;
      j++;
      if (state >= first && accepts[state] !== 0) {
        states[count] = state;
        ends[count] = i - 1;
        if (++count === capacity) break;
      }
      if (other >= first && accepts[other] !== 0) {
        states[more] = other;
        ends[more] = j - 1;
        if (++more === 2 * capacity) {
          full = true;
          break;
        }
      }
    }
    if (count === capacity) {
      this.setStop(count, i, state);
      return;
    }
    if (full) {
      // The second stream's record is full: the first goes on alone to its half's end, and may fill its own.
      this.run(automaton, accepting, bytes, i, mid, state, count, capacity);
      if (this.count === capacity) return;
      count = this.count;
    } else {
      this.run(automaton, accepting, bytes, j, end, other, more, 2 * capacity);
      more = this.count;
      j = this.at;
      other = this.state;
    }
    states.copyWithin(count, capacity, more);
    ends.copyWithin(count, capacity, more);
    this.setStop(count + more - capacity, j, other);
  }

  /** One stream over `bytes[from, until)`, its hits recorded from `count` on until `limit` of them are held. */
  private run(
    automaton: KeywordAutomaton<unknown>,
    accepting: Accepting,
    bytes: Uint8Array,
    from: number,
    until: number,
    state: number,
    count: number,
    limit: number,
  ): void {
    const { delta } = automaton;
    const { states: accepts, first } = accepting;
    const { states, ends } = this;
    let i = from;
    while (i < until) {
      state = delta[(state << 7) | FOLD[bytes[i]!]!]!;
      i++;
      if (state < first || accepts[state] === 0) continue;
      states[count] = state;
      ends[count] = i - 1;
      if (++count === limit) break;
    }
    this.setStop(count, i, state);
  }

  private setStop(count: number, at: number, state: number): void {
    this.count = count;
    this.at = at;
    this.state = state;
  }
}
