import type { CompiledRule } from './compiled-rule.js';
import { isBlank, isQuote } from './gate-checks.js';
import type { NameGateShape } from './name-gate.js';
import type { KeywordAutomaton } from './prefilter.js';

/**
 * Hits that nothing could open, dropped by the byte scan before they are handled (`byte-scan.ts`). `key` is no older
 * rule's keyword and stands everywhere in code (38,549 hits of its state on the rule-cost row's 64 MB, 1 in 150 of
 * which opens a window): each hit handled cost its batch step, a tile, a shape mask, a name walk and up to four gates.
 * Where every rule of a state's keywords has a name-gate shape (`name-gate.ts`) or a test of the bytes after the hit
 * declared with its gate (or both), and the name walk's rules have shapes, a hit that none of them allows is dropped
 * unhandled: on that row 43,999 of 55,815 such hits (`key` 28,157, `auth` 7,814, `access` all 6,097).
 *
 * A declared test must be implied by its gate: wherever it is false, the gate (its check in code and its regex) fails
 * at that hit, on any text. It reads the bytes the byte scan reads (ASCII as itself, any other UTF-16 unit as a byte of
 * 0x80 or more at the same offset, `unit-bytes.ts`), so it must treat every byte past ASCII as no ASCII character, as
 * the checks do with code units. `hit-bytes.test.ts` checks every state's test against the gates and the name walk on
 * random text, and the findings of the scan from the bytes (which drops) against the string's scan (which does not).
 */
export type HitBytesTest = (bytes: Uint8Array, after: number) => boolean;

/**
 * A hit's verdict (`StateTest.verdict`): dropped unhandled; only its name walk run (no rule of its own keywords could
 * open, so no tile, shape mask or rule call: on the rule-cost row's 64 MB most of `key`'s hits that pass its test,
 * `TagKey = string`, pass only for the walk); handled whole.
 */
export const DROP = 0;
export const WALK = 1;
export const HANDLE = 2;
export type HitVerdict = typeof DROP | typeof WALK | typeof HANDLE;

const declared = new WeakMap<RegExp, HitBytesTest>();

/** `gate`, with `test` (of the bytes around a hit) as what its check in code needs there (see `HitBytesTest`). */
export function withBytesTest(gate: RegExp, test: HitBytesTest): RegExp {
  declared.set(gate, test);
  return gate;
}

/** The test declared with `gate` by `withBytesTest`, if any. */
export function bytesTestOf(gate: RegExp | undefined): HitBytesTest | undefined {
  return gate === undefined ? undefined : declared.get(gate);
}

/** Per byte, 1 for a name character (`[A-Za-z0-9_.-]`). */
const NAME_CHAR = new Uint8Array(256);
for (const char of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-')
  NAME_CHAR[char.charCodeAt(0)] = 1;

/** The byte at `at`, or -1 outside `bytes`. */
export function byteAt(bytes: Uint8Array, at: number): number {
  return at >= 0 && at < bytes.length ? bytes[at]! : -1;
}

/** The column of the tables for no byte (past either end) or one past ASCII: no shape allows it. */
const NONE = 128;

/**
 * The name shapes of some rules as two tables: per character at the name's end and per character at its separator
 * (`nameRunEnd` and `separatorAt`), the longest name rest a rule allows there, or -1. A hit is allowed by one of the
 * rules when its name rest is no longer than the entry of its end's or its separator's character.
 */
class ShapeTables {
  readonly atEnd = new Int16Array(NONE + 1).fill(-1);
  readonly atSeparator = new Int16Array(NONE + 1).fill(-1);
  longest = -1;

  /** Adds a rule's shape (its `next` and `value` left out: a weaker test is still implied by the gate). */
  add(shape: NameGateShape): void {
    const table = shape.at === 'end' ? this.atEnd : this.atSeparator;
    for (let code = 0; code < NONE; code++)
      if (shape.allowed[code] === 1 && table[code]! < shape.run) table[code] = shape.run;
    this.longest = Math.max(this.longest, shape.run);
  }

  allows(rest: number, end: number, separator: number): boolean {
    return rest <= this.atEnd[end]! || rest <= this.atSeparator[separator]!;
  }
}

/** A rule with a test in code: its shape, if any, is asked first (on the shared parse), then its test. */
interface CheckedRule {
  readonly shape: ShapeTables | null;
  readonly test: HitBytesTest;
}

/**
 * What one state's hits need, for one of its rules (or the name walk) to open (`verdict`).
 * One class with one parse of the name after the hit for every rule: as a test per rule (a closure each, each parsing
 * the name again) the tests of `key`'s 38,500 hits on the rule-cost row cost 9 ms of the 12 ms the drop spared.
 */
export class StateTest {
  /** The rules with a shape and no test of their own. */
  readonly shapes = new ShapeTables();
  readonly checked: CheckedRule[] = [];
  /** The lengths of the state's name words, and the named rules' shapes (the walk's test, `walkAllows`). */
  readonly nameWords: number[] = [];
  walk: ShapeTables | null = null;
  /** The longest name rest any shape here allows: the parse reads one more. */
  longest = -1;

  /**
   * What the hit ending at `after` needs: `HANDLE` when a rule of the state's keywords may open there, else `WALK` when
   * only the name walk may (a provider keyword before the name word), else `DROP`.
   */
  verdict(bytes: Uint8Array, after: number): HitVerdict {
    const limit = Math.min(bytes.length, after + this.longest + 1);
    let end = after;
    while (end < limit && NAME_CHAR[bytes[end]!] === 1) end++;
    const rest = end - after;
    const atEnd = column(bytes, end);
    // `separatorAt`: past one backslash, one quote and any blanks.
    let separator = end;
    if (byteAt(bytes, separator) === 92) separator++;
    if (isQuote(byteAt(bytes, separator))) separator++;
    while (isBlank(byteAt(bytes, separator))) separator++;
    const atSeparator = column(bytes, separator);
    if (this.shapes.allows(rest, atEnd, atSeparator)) return HANDLE;
    const { checked } = this;
    for (let k = 0; k < checked.length; k++) {
      const { shape, test } = checked[k]!;
      if ((shape === null || shape.allows(rest, atEnd, atSeparator)) && test(bytes, after)) return HANDLE;
    }
    const { walk, nameWords } = this;
    if (walk?.allows(rest, atEnd, atSeparator)) {
      // A provider keyword ends at the latest right before the name word: a name character stands there.
      for (let k = 0; k < nameWords.length; k++)
        if (NAME_CHAR[byteAt(bytes, after - nameWords[k]! - 1) & 255] === 1) return WALK;
    }
    return DROP;
  }
}

/** `column` of a string's code unit. */
function textColumn(text: string, at: number): number {
  if (at >= text.length) return NONE;
  const code = text.charCodeAt(at);
  return code < NONE ? code : NONE;
}

function column(bytes: Uint8Array, at: number): number {
  if (at >= bytes.length) return NONE;
  const code = bytes[at]!;
  return code < NONE ? code : NONE;
}

/** Per automaton state, the test a hit there must pass to be handled; null to handle every hit. */
export class HitDrops {
  private readonly states: Array<StateTest | null>;
  /** The named rules' shapes (null when one has none, or there are none: then every walk is made). */
  private readonly walk: ShapeTables | null;

  /** `named`: the rules the name walk opens (`NameKeywords`' items). */
  constructor(automaton: KeywordAutomaton<CompiledRule>, named: readonly CompiledRule[]) {
    // The name walk's test: a provider keyword's name runs on through the name word to the same end and separator,
    // so every named rule's shape must allow the name's rest after the name word too (a longer rest from an earlier
    // start: `run` bounds both). A named rule without a shape: no walk test.
    let walk: ShapeTables | null = new ShapeTables();
    for (const compiled of named) {
      if (compiled.gateShape === undefined) walk = null;
      else walk?.add(compiled.gateShape);
    }
    this.walk = walk;
    this.states = automaton.outputs.map((list) => {
      if (list === undefined) return null;
      // Made only for a state whose every rule has a shape or a test (47 of 2,879 with the built-in rules).
      const testable = list.every(
        (output) =>
          (!output.nameWord || named.length === 0 || walk !== null) &&
          output.items.every(
            (item) =>
              item.gateShape !== undefined || (item.outline.gate !== undefined && declared.has(item.outline.gate)),
          ),
      );
      if (!testable) return null;
      const state = new StateTest();
      for (const output of list) {
        if (output.nameWord && named.length > 0) {
          if (walk === null) return null;
          state.walk = walk;
          state.nameWords.push(output.length);
          state.longest = Math.max(state.longest, walk.longest);
        }
        for (const compiled of output.items) {
          const gate = compiled.outline.gate;
          const shape = compiled.gateShape;
          const test = gate === undefined ? undefined : declared.get(gate);
          if (test === undefined && shape === undefined) return null;
          if (shape !== undefined) state.longest = Math.max(state.longest, shape.run);
          if (test === undefined) state.shapes.add(shape!);
          else {
            let own: ShapeTables | null = null;
            if (shape !== undefined) {
              own = new ShapeTables();
              own.add(shape);
            }
            state.checked.push({ shape: own, test });
          }
        }
      }
      return state;
    });
  }

  /**
   * Whether the name walk at a name word of `length` that ends at `after` in `text` may open a window, from the hit's
   * parse there (`runEnd` from `nameRunEnd`, `separator` from `separatorAt`): the walk's test of `StateTest.verdict`,
   * for the hits the scan handles (at `token`, 44,500 a pass on the rule-cost row, most before `?:` or `)`).
   */
  walkMayOpen(text: string, after: number, runEnd: number, separator: number, length: number): boolean {
    const { walk } = this;
    if (walk === null) return true;
    if (!walk.allows(runEnd - after, textColumn(text, runEnd), textColumn(text, separator))) return false;
    const before = after - length - 1;
    return before >= 0 && NAME_CHAR[text.charCodeAt(before) & 255] === 1 && text.charCodeAt(before) < 128;
  }

  /** The test of `state`, or null when its hits are all handled. */
  of(state: number): StateTest | null {
    return this.states[state] ?? null;
  }
}
