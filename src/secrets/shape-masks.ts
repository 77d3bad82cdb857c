import type { CompiledRule } from './compiled-rule.js';
import { isRefutedInJsonValue } from './json-value.js';
import { type GateCheck, MAX_NAME_RUN, valueAt } from './name-gate.js';
import type { KeywordAutomaton, KeywordOutput } from './prefilter.js';

/**
 * Which rules of a keyword a hit can still open, from the name-gate shapes alone (`name-gate.ts`), as one bit per
 * rule: in keyword-dense text one hit wakes a dozen rules, and each asked its gate in turn, most to be turned down by
 * the character after the name. A rule whose gate has a shape opens no window where the shape does not allow the hit
 * (`GateCheck.passes` asks the shape first, with nothing read or kept before it), so the scan may skip it unasked.
 */

/** The most rules of one keyword the bits of a mask tell apart. */
const MAX_ITEMS = 31;
/** Fewer rules with a shape than this and the keyword is left to the rules' own gates. */
const MIN_SHAPED = 4;
/** The column of the tables for no character (past the end of the text) or one outside ASCII: no shape allows it. */
const NONE = 128;

/** Per character (or length of the name's rest), the bits of the rules whose shapes allow it. */
export interface OutputShapes {
  readonly atEnd: Int32Array;
  readonly atSeparator: Int32Array;
  /** Null when no rule's shape reads the value's first character. */
  readonly value: Int32Array | null;
  readonly run: Int32Array;
  /** The bits of the rules whose gate check is false in a JSON value under an ordinary key (`json-value.ts`). */
  readonly jsonRefuted: number;
  /** The bits of the rules whose gate turns down a `,` after such a value (the call check, `NameGateShape.call`). */
  readonly callAtComma: number;
}

/** The tables of `output`, or null when its rules are too many, or too few of them have a shape. */
export function outputShapes(output: KeywordOutput<CompiledRule>): OutputShapes | null {
  const { items } = output;
  if (items.length > MAX_ITEMS) return null;
  const shaped = items.filter((item) => item.gateShape !== undefined);
  if (shaped.length < MIN_SHAPED) return null;
  const all = 2 ** items.length - 1;
  const table = (size: number) => new Int32Array(size).fill(all);
  const shapes = {
    atEnd: table(NONE + 1),
    atSeparator: table(NONE + 1),
    value: shaped.some((item) => item.gateShape!.value !== undefined) ? table(NONE + 1) : null,
    run: table(MAX_NAME_RUN + 2),
    jsonRefuted: 0,
    callAtComma: 0,
  };
  for (const [index, item] of items.entries()) {
    const shape = item.gateShape;
    const bit = 1 << index;
    if (item.gateCheck !== undefined && isRefutedInJsonValue(item.gateCheck)) shapes.jsonRefuted |= bit;
    if (shape === undefined) continue;
    if (shape.call) shapes.callAtComma |= bit;
    disallowRuns(shapes.run, shape.run + 1, bit);
    disallow(shape.at === 'end' ? shapes.atEnd : shapes.atSeparator, shape.allowed, bit);
    if (shape.next !== undefined) disallow(shapes.atSeparator, shape.next, bit);
    if (shape.value !== undefined) disallow(shapes.value!, shape.value, bit);
  }
  return shapes;
}

// The tables' loops are in small functions of their own: V8 counts a loop's work toward the function it is in, and
// with this one in `outputShapes` (about 80 turns per rule, 400 rules) `outputShapes` was compiled by TurboFan mid-loop
// in every scanning thread, one of the largest compiles of a scan (20-80 ms each) for code run once per keyword.
function disallowRuns(table: Int32Array, from: number, bit: number): void {
  for (let run = from; run < table.length; run++) table[run]! &= ~bit;
}

function disallow(table: Int32Array, allowed: Uint8Array, bit: number): void {
  for (let code = 0; code <= NONE; code++) if (code === NONE || allowed[code] !== 1) table[code]! &= ~bit;
}

/**
 * The bits of the rules of a keyword hit ending at `after` whose shapes allow it: the same tests as `shapeAllows`, on
 * the same parse (`runEnd` from `nameRunEnd`, `separator` from `separatorAt`), for every rule at once. Rules without
 * a shape keep their bit.
 */
export function shapeMask(
  shapes: OutputShapes,
  text: string,
  after: number,
  runEnd: number,
  separator: number,
): number {
  const mask =
    shapes.run[runEnd - after]! & shapes.atEnd[column(text, runEnd)]! & shapes.atSeparator[column(text, separator)]!;
  if (shapes.value === null || mask === 0) return mask;
  return mask & shapes.value[column(text, valueAt(text, separator))]!;
}

/**
 * `mask` without the rules that cannot open at a hit inside a JSON value under an ordinary key
 * (`GateCheck.inJsonValueAt`): those whose gate check is false there, and at a `,` after the value those whose call
 * check is. The look back is read only when the mask holds such a rule and no `:` or `=` follows the name, once for
 * all of them.
 */
export function withoutJsonRefuted(shapes: OutputShapes, mask: number, gates: GateCheck, after: number): number {
  const separator = gates.separatorCodeAfter(after);
  // A name before `:` or `=` is a key, not a value: no look back (keyword-dense JSON has a key at every hit).
  if (separator === 58 || separator === 61) return mask;
  const refuted = shapes.jsonRefuted | (separator === 44 ? shapes.callAtComma : 0);
  if ((mask & refuted) === 0 || !gates.inJsonValueAt(after)) return mask;
  return mask & ~refuted;
}

function column(text: string, at: number): number {
  if (at >= text.length) return NONE;
  const code = text.charCodeAt(at);
  return code < NONE ? code : NONE;
}

/** Per state of the keyword automaton, the tables of its keywords (made at a state's first hit). */
export class StateShapes {
  private readonly states: Array<ReadonlyArray<OutputShapes | null> | undefined>;
  private readonly made = new Map<KeywordOutput<CompiledRule>, OutputShapes | null>();

  constructor(private readonly automaton: KeywordAutomaton<CompiledRule>) {
    this.states = new Array(automaton.outputs.length).fill(undefined);
  }

  /** Aligned with `automaton.outputs[state]`. */
  of(state: number): ReadonlyArray<OutputShapes | null> {
    return this.states[state] ?? this.make(state);
  }

  private make(state: number): ReadonlyArray<OutputShapes | null> {
    const list = (this.automaton.outputs[state] ?? []).map((output) => {
      let shapes = this.made.get(output);
      if (shapes === undefined) {
        shapes = outputShapes(output);
        this.made.set(output, shapes);
      }
      return shapes;
    });
    this.states[state] = list;
    return list;
  }
}
