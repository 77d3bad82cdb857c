import type { HitCheck } from './gate-checks.js';
import { inOrdinaryJsonValue, isRefutedInJsonValue } from './json-value.js';
import { NextIndex } from './next-index.js';

/**
 * Gates that read the rest of a credential name after a keyword hit and then what must come next (`=`, `: `, a quote
 * and `]`). In keyword-dense text (a JSON document with a credential-named key on every line) one hit wakes a dozen
 * rules, each with its own gate: the scanner parses what follows the hit once (where the name ends, which separator
 * comes next) and each rule checks that parse, a table look-up, before running its gate's regex.
 */

/** What a name gate needs, from the parse of what follows a hit. */
export interface NameGateShape {
  /** Longest rest of the name (`[A-Za-z0-9_.-]`) the gate allows after the keyword. */
  readonly run: number;
  /**
   * Where the character the gate needs is read: right where the name ends, or at the separator (past one optional
   * backslash, one optional quote and any blanks).
   */
  readonly at: 'end' | 'separator';
  /** Per ASCII code, 1 where the gate allows that character there. */
  readonly allowed: Uint8Array;
  /**
   * When set (a shape read where the name ends), per ASCII code, 1 where the gate allows the separator's character
   * too (`separatorAt`: past one optional backslash, one optional quote and any blanks).
   */
  readonly next: Uint8Array | undefined;
  /**
   * When set, per ASCII code, 1 where the gate allows the value to start: past the separator's `:`, `=` and `>`
   * and any blanks after it.
   */
  readonly value: Uint8Array | undefined;
  /**
   * When set, true for a quoted value that every rule with this gate rejects on its own: a hit whose value after an
   * `=` or `:` is quoted with such text, or with a quote that does not close on its line, cannot be reported. Only for
   * gates whose rules' patterns take a value quoted there as the secret, whole (`assignmentPattern`).
   */
  readonly quoted: ((value: string) => boolean) | undefined;
  /**
   * True when a `,` where the separator is read stands only after a call's first argument, quoted, as the patterns'
   * call form has it (`define('DB_PASSWORD', '…')`): see `quotedCallArgument`.
   */
  readonly call: boolean;
}

/** The longest `run` of any name gate: the parse reads at most one character more. */
export const MAX_NAME_RUN = 80;

/** Letters and digits, for the character lists of `NameGateSpec`. */
export const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

const shapes = new WeakMap<RegExp, NameGateShape>();

function charTable(chars: string): Uint8Array {
  const table = new Uint8Array(128);
  for (const char of chars) table[char.charCodeAt(0)] = 1;
  return table;
}

/** What `nameGate` needs besides the regex: where the name may end and which characters may come next. */
export interface NameGateSpec {
  readonly run: number;
  readonly at: NameGateShape['at'];
  /** The characters allowed where `at` says. */
  readonly chars: string;
  /** For `at: 'end'`, the characters allowed at the separator as well (see `NameGateShape.next`). */
  readonly next?: string;
  /** The characters a value may start with (see `NameGateShape.value`), when the gate reads that far. */
  readonly value?: string;
  /** See `NameGateShape.quoted`. */
  readonly quoted?: (value: string) => boolean;
  /** See `NameGateShape.call`. */
  readonly call?: boolean;
}

/**
 * A gate of the form `[A-Za-z0-9_.-]{0,run}` then `rest`, whose first character is one of `chars` (read where `at`
 * says). `rest` must not start with a name character, nor, for `separator`, with a backslash, quote or blank it may
 * not also skip: the parse and the regex then agree on where the name ends (the gate tests prove it on random text).
 * `source` replaces the whole regex when its name part is not the plain `[A-Za-z0-9_.-]{0,run}`.
 */
export function nameGate(spec: NameGateSpec, rest: string, flags = '', source?: string): RegExp {
  if (spec.run > MAX_NAME_RUN) throw new Error(`name gate run ${spec.run} exceeds ${MAX_NAME_RUN}`);
  const gate = new RegExp(source ?? `[A-Za-z0-9_.-]{0,${spec.run}}${rest}`, flags);
  const value = spec.value === undefined ? undefined : charTable(spec.value);
  if (spec.next !== undefined && spec.at !== 'end') throw new Error('a name gate reads its separator once');
  shapes.set(gate, {
    run: spec.run,
    at: spec.at,
    allowed: charTable(spec.chars),
    next: spec.next === undefined ? undefined : charTable(spec.next),
    value,
    quoted: spec.quoted,
    call: spec.call === true,
  });
  return gate;
}

/** The shape of a gate built by `nameGate` (by identity: the rule's own gate object). */
export function nameGateShape(gate: RegExp | undefined): NameGateShape | undefined {
  return gate === undefined ? undefined : shapes.get(gate);
}

const NAME_CHAR = charTable(`${ALNUM}_.-`);

/** Where the run of name characters from `from` ends, reading at most `MAX_NAME_RUN + 1` of them. */
export function nameRunEnd(text: string, from: number): number {
  const limit = Math.min(text.length, from + MAX_NAME_RUN + 1);
  let at = from;
  while (at < limit) {
    const code = text.charCodeAt(at);
    if (code >= 128 || NAME_CHAR[code] === 0) break;
    at++;
  }
  return at;
}

/**
 * The character at `at`, or -1 past the end. Reading past a text's end (NaN from `charCodeAt`) threw away V8's optimized
 * code of the scan loop the gates are inlined into, which then compiled again: in a short scan that cost more than
 * the gates themselves.
 */
function codeAt(text: string, at: number): number {
  return at < text.length ? text.charCodeAt(at) : -1;
}

/** The separator's offset after a name that ends at `end`: past one backslash, one quote and any blanks. */
export function separatorAt(text: string, end: number): number {
  let at = end;
  if (codeAt(text, at) === 92) at++; // `\"` in JSON inside JSON
  const quote = codeAt(text, at);
  if (quote === 34 || quote === 39) at++;
  for (let code = codeAt(text, at); code === 32 || code === 9; code = codeAt(text, at)) at++;
  return at;
}

/**
 * False when the gate cannot match after a hit ending at `after`, whose name ends at `runEnd` with its separator at
 * `separator` (from `nameRunEnd` and `separatorAt`); true when only the gate's regex can tell.
 */
export function shapeAllows(
  shape: NameGateShape,
  text: string,
  after: number,
  runEnd: number,
  separator: number,
): boolean {
  if (runEnd - after > shape.run) return false;
  const code = codeAt(text, shape.at === 'end' ? runEnd : separator);
  if (!(code >= 0 && code < 128 && shape.allowed[code] === 1)) return false;
  if (shape.next !== undefined) {
    const next = codeAt(text, separator);
    if (!(next >= 0 && next < 128 && shape.next[next] === 1)) return false;
  }
  if (shape.value === undefined) return true;
  const start = codeAt(text, valueAt(text, separator));
  return start >= 0 && start < 128 && shape.value[start] === 1;
}

/** Where a value starts after the separator at `separator`: past its `:`, `=` and `>`, then past any blanks. */
export function valueAt(text: string, separator: number): number {
  let at = separator;
  for (let code = codeAt(text, at); code === 58 || code === 61 || code === 62; code = codeAt(text, at)) at++;
  for (let code = codeAt(text, at); code === 32 || code === 9; code = codeAt(text, at)) at++;
  return at;
}

/** The longest name a call's first argument holds in the patterns (`["'][A-Za-z0-9_.-]{1,130}` before its quote). */
const MAX_CALL_NAME = 130;

/**
 * Whether the name holding a hit that ends at `after`, its run of name characters ending at `runEnd`, is a call's
 * first argument, quoted: `(`, at most 4 blanks, a quote, the name, a quote. A keyword inside a JSON value followed by
 * `, "next_key": …` (one line of credential-named keys) is not, and opens no window.
 */
export function quotedCallArgument(text: string, after: number, runEnd: number): boolean {
  const close = codeAt(text, runEnd);
  if (close !== 34 && close !== 39) return false;
  const limit = Math.max(0, runEnd - MAX_CALL_NAME - 1);
  let start = after;
  while (start > limit && NAME_CHAR[text.charCodeAt(start - 1)] === 1) start--;
  if (start === 0) return false;
  const open = text.charCodeAt(start - 1);
  if (open !== 34 && open !== 39) return false;
  let at = start - 1;
  for (let blanks = 0; blanks < 4 && at > 0; blanks++) {
    const code = text.charCodeAt(at - 1);
    if (code !== 32 && code !== 9) break;
    at--;
  }
  return at > 0 && text.charCodeAt(at - 1) === 40;
}

/** The longest quoted value a pattern takes (`"(?<secretQuoted>[^"\r\n]{1,200})"`). */
const MAX_QUOTED = 200;

/**
 * The text of a value quoted right after the separator at `separator` when that is `=` or `:` (past `:`, `=`, `>` and
 * blanks, see `valueAt`), as a pattern's `"…"` or `'…'` group takes it; '' when its quote does not close on its line
 * within `MAX_QUOTED` characters (no such group matches); undefined when there is no such quoted value.
 */
export function quotedValueAt(text: string, separator: number): string | undefined {
  const code = codeAt(text, separator);
  if (code !== 58 && code !== 61) return undefined;
  const start = valueAt(text, separator);
  const quote = codeAt(text, start);
  if (quote !== 34 && quote !== 39) return undefined;
  // The engine's own searches, remembered for the next hit (`NextIndex`): a scan's first megabytes run before its
  // loops are compiled, and a loop over each character here cost more there than the rest of the check.
  const close = (quote === 34 ? doubleQuotes : singleQuotes).next(text, start + 1);
  if (close === -1 || close > start + MAX_QUOTED + 1) return '';
  const lineFeed = lineFeeds.next(text, start + 1);
  if (lineFeed !== -1 && lineFeed < close) return '';
  const carriageReturn = carriageReturns.next(text, start + 1);
  if (carriageReturn !== -1 && carriageReturn < close) return '';
  return text.slice(start + 1, close);
}

/** `quotedValueAt`'s own searches (its offsets come in order apart from other checks'). */
const doubleQuotes = new NextIndex('"');
const singleQuotes = new NextIndex("'");
const lineFeeds = new NextIndex('\n');
const carriageReturns = new NextIndex('\r');

/**
 * The gate checks of one text: the parse of what follows a hit is made once for all the rules that hit wakes (they
 * come one after another, for the same hit end).
 */
export class GateCheck {
  private after = -1;
  private runEnd = -1;
  private separator = -1;
  /** The verdict of `quotedCheck` on the value after the latest hit: 1 rejected, 0 not, -1 not yet known. */
  private quotedVerdict = -1;
  private quotedCheck: ((value: string) => boolean) | undefined;
  /** The verdict of the check in code `checked` after the latest hit: 1 passed, 0 not, -1 not yet known. */
  private checkVerdict = -1;
  private checked: HitCheck | undefined;
  /** The verdict of `quotedCallArgument` after the latest hit: 1 a call's argument, 0 not, -1 not yet known. */
  private callVerdict = -1;
  /** The verdict of `inOrdinaryJsonValue` after the latest hit: 1 in such a value, 0 not, -1 not yet known. */
  private jsonVerdict = -1;
  /** The latest gate regex tested, where, and its verdict. */
  private testedGate: RegExp | undefined;
  private testedAfter = -1;
  private tested = false;

  constructor(private readonly text: string) {}

  /**
   * Whether `gate` (sticky; `shape` its name-gate shape, if any) matches right after a hit ending at `after`. With a
   * shape, `check` (the gate's check in code) is asked once the shape allows the hit, its verdict kept for the other
   * rules of the gate at the same hit; without one, the caller asks it first (`opensAt`). `shaped`: the caller knows
   * the shape allows the hit (a shape mask's bit), so it is not read again.
   */
  passes(gate: RegExp, shape: NameGateShape | undefined, after: number, check?: HitCheck, shaped = false): boolean {
    if (shape !== undefined) {
      this.parse(after);
      if (!shaped && !shapeAllows(shape, this.text, after, this.runEnd, this.separator)) return false;
      if (check !== undefined && !this.checkPasses(check)) return false;
      if (shape.quoted !== undefined && this.rejectsQuoted(shape.quoted)) return false;
      if (shape.call && codeAt(this.text, this.separator) === 44 && !this.callArgument()) return false;
    }
    // Rules that share a gate (the split-field forms, every provider-named rule) ask it in turn at one hit.
    if (gate === this.testedGate && after === this.testedAfter) return this.tested;
    this.testedGate = gate;
    this.testedAfter = after;
    gate.lastIndex = after;
    this.tested = gate.test(this.text);
    return this.tested;
  }

  /** Where the name holding a hit ending at `after` ends (`nameRunEnd`): the parse `passes` reads, made once a hit. */
  nameEnd(after: number): number {
    this.parse(after);
    return this.runEnd;
  }

  /** The separator after that name (`separatorAt`), from the same parse. */
  separatorAfter(after: number): number {
    this.parse(after);
    return this.separator;
  }

  /** The character of that separator, or -1 past the text's end. */
  separatorCodeAfter(after: number): number {
    this.parse(after);
    return codeAt(this.text, this.separator);
  }

  /** Whether the hit ending at `after` is in a JSON value under an ordinary key (`inOrdinaryJsonValue`), read once. */
  inJsonValueAt(after: number): boolean {
    this.parse(after);
    return this.inJsonValue();
  }

  private parse(after: number): void {
    if (after === this.after) return;
    this.after = after;
    this.runEnd = nameRunEnd(this.text, after);
    this.separator = separatorAt(this.text, this.runEnd);
    this.quotedVerdict = -1;
    this.callVerdict = -1;
    this.checkVerdict = -1;
    this.jsonVerdict = -1;
  }

  /**
   * Whether the latest hit is in a JSON value under an ordinary key (`inOrdinaryJsonValue`), read once for the checks
   * that are false there: each of them read back over the same name.
   */
  private inJsonValue(): boolean {
    if (this.jsonVerdict === -1) this.jsonVerdict = inOrdinaryJsonValue(this.text, this.after) ? 1 : 0;
    return this.jsonVerdict === 1;
  }

  /** `check`'s verdict at the latest hit, asked once for the rules of one gate. */
  private checkPasses(check: HitCheck): boolean {
    if (this.checkVerdict === -1 || check !== this.checked) {
      this.checked = check;
      this.checkVerdict = !(isRefutedInJsonValue(check) && this.inJsonValue()) && check(this.text, this.after) ? 1 : 0;
    }
    return this.checkVerdict === 1;
  }

  /** `quotedCallArgument` for the latest hit, read once for the rules of one gate. */
  private callArgument(): boolean {
    if (this.callVerdict === -1)
      this.callVerdict = !this.inJsonValue() && quotedCallArgument(this.text, this.after, this.runEnd) ? 1 : 0;
    return this.callVerdict === 1;
  }

  /** Whether `check` rejects the quoted value after the latest hit (rules of one gate share the verdict). */
  private rejectsQuoted(check: (value: string) => boolean): boolean {
    if (this.quotedVerdict === -1 || check !== this.quotedCheck) {
      const value = quotedValueAt(this.text, this.separator);
      this.quotedCheck = check;
      this.quotedVerdict = value !== undefined && (value === '' || check(value)) ? 1 : 0;
    }
    return this.quotedVerdict === 1;
  }
}

/** Calls past the point where V8 starts keeping a function's type feedback (as `KeywordHits`' warm-up). */
const WARM_CALLS = 32;
/** A gate whose `,` counts only after a call's first argument, as the assignment gate's. */
const WARM_CALL_GATE = nameGate({ run: 8, at: 'separator', chars: ',', call: true }, `["']?,`, 'y');
/**
 * Texts whose hit (`key`, ending at `WARM_CALL_AFTER`) has a `,` as its separator, one for each of
 * `quotedCallArgument`'s answers: a call's first argument, no quote after the name, none before it, no `(` before
 * that quote, the name at the start.
 */
const WARM_CALL_TEXTS = ["f( 'key', 'v')", '(a key, x', "(a key', x", ' ,"key", x', "key', 'v'!!"];
const WARM_CALL_AFTER = [7, 6, 6, 6, 3];

/**
 * Two of `passes`' paths run late in a scan of many small texts: the gate's verdict kept for the next rule of the same
 * gate at the same hit (only once a hit passed every check of a gate that rules share), and the call check (only at a
 * `,` after a name the rest of the gate allowed). In a history the first of them came thousands of targets in, after
 * V8 had optimized the scanner's hit loop with `passes` inlined; with no type feedback there, that optimized code was
 * thrown away and compiled again (two of a history scan's largest compile jobs, in about half the runs). Run when the
 * module loads, each text asked twice, both have their feedback from the start; each check is on a `GateCheck` of its
 * own, so no scan's state is touched.
 */
function warmPasses(): void {
  const shape = nameGateShape(WARM_CALL_GATE);
  for (let round = 0; round < WARM_CALLS; round++) {
    for (let index = 0; index < WARM_CALL_TEXTS.length; index++) {
      const gates = new GateCheck(WARM_CALL_TEXTS[index] as string);
      const after = WARM_CALL_AFTER[index] as number;
      gates.passes(WARM_CALL_GATE, shape, after);
      gates.passes(WARM_CALL_GATE, shape, after);
    }
  }
}
warmPasses();
