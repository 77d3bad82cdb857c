/**
 * A hit context: the characters a gate needs right around its keyword, position by position, declared with the gate
 * (`checkedGate`) so that the keyword pass drops a hit it does not hold before any hit is handled (`KeywordHits`,
 * once its loop stops). Meant for keywords found everywhere: the bare Discord token's `.` was 78 % of all keyword hits
 * on npm code and the Facebook app token's `|` 8 %; each hit handled cost the scan its dispatch, a tile and the gate's
 * check, for a gate that turns down nearly every one of them.
 *
 * A context must be implied by the gate: wherever one of its positions does not hold, the gate (its check in code and
 * its regex) fails right there, on any text (`hit-context.test.ts` checks each built-in one on random text). Its
 * positions are contiguous, from the keyword outwards on either side, and each allows only ASCII characters: so a
 * UTF-8 file read a byte per character turns a hit down only where its decoded text would too. (The nearest position
 * that fails is preceded by ASCII bytes only, which are the decoded text's characters at the same distance from the
 * keyword; a non-ASCII byte there is a non-ASCII character there, which no position allows.)
 */
export interface HitContext {
  /** Per position before the keyword, in text order (the last is the character right before it): its characters. */
  readonly before: readonly string[];
  /** Per position after the keyword, in text order: its characters. */
  readonly after: readonly string[];
}

/**
 * A context's positions as character classes (the text between `[` and `]` of a regex class, such as `A-Za-z0-9_-`;
 * a tab written as itself), checked here to allow only ASCII characters.
 */
export function hitContext(before: readonly string[], after: readonly string[]): HitContext {
  for (const chars of [...before, ...after]) setOf(chars);
  return { before, after };
}

/**
 * The checks of every condition of an automaton's states, flat: condition `c` (an accepting state's mark `c +
 * FIRST_CONDITION`) is checks `starts[c]` to `starts[c + 1]`, each of the code at `offsets[k]` from the end of the hit
 * (the offset after its last character), which `sets[(k << 8) | code]` allows where it is 1 (ASCII only; a code past
 * 255 is never allowed). The checks after the keyword come first, from the nearest; then those before it.
 */
export interface HitConditions {
  readonly starts: Int32Array;
  readonly offsets: Int32Array;
  readonly sets: Uint8Array;
  /** Whether there is any condition (else no hit needs a look). */
  readonly any: boolean;
}

/** The mark of the first condition in a state's accepting flag (1 is a hit with no condition). */
export const FIRST_CONDITION = 2;
/** How many conditions an automaton may have (its accepting flags are bytes). */
export const MAX_CONDITIONS = 254;

/** Conditions of no state (of the same shape as any other). */
export const NO_CONDITIONS: HitConditions = conditionsOf([]);

/** The tables of `contexts`, each of a keyword of `length` characters. */
export function conditionsOf(contexts: ReadonlyArray<{ context: HitContext; length: number }>): HitConditions {
  const offsets: number[] = [];
  const sets: Uint8Array[] = [];
  const starts = new Int32Array(contexts.length + 1);
  contexts.forEach(({ context, length }, index) => {
    context.after.forEach((chars, at) => {
      offsets.push(at);
      sets.push(setOf(chars));
    });
    const { before } = context;
    for (let at = before.length - 1; at >= 0; at--) {
      offsets.push(at - before.length - length);
      sets.push(setOf(before[at]!));
    }
    starts[index + 1] = offsets.length;
  });
  const flat = new Uint8Array(Math.max(1, sets.length) << 8);
  sets.forEach((set, check) => {
    flat.set(set, check << 8);
  });
  return { starts, offsets: Int32Array.from(offsets), sets: flat, any: contexts.length > 0 };
}

/** Whether the bytes around a hit that ends before `after` hold condition `mark` (see `HitConditions`). */
export function holdsInBytes(conditions: HitConditions, mark: number, bytes: Uint8Array, after: number): boolean {
  const { starts, offsets, sets } = conditions;
  const end = starts[mark - FIRST_CONDITION + 1]!;
  for (let check = starts[mark - FIRST_CONDITION]!; check < end; check++) {
    const at = after + offsets[check]!;
    if (at < 0 || at >= bytes.length || sets[(check << 8) | bytes[at]!] === 0) return false;
  }
  return true;
}

/** `holdsInBytes` on a string's code units. */
export function holdsInText(conditions: HitConditions, mark: number, text: string, after: number): boolean {
  const { starts, offsets, sets } = conditions;
  const end = starts[mark - FIRST_CONDITION + 1]!;
  for (let check = starts[mark - FIRST_CONDITION]!; check < end; check++) {
    // Past either end of the text: no condition holds. Tested here, not left to `charCodeAt`'s NaN: a first read out of
    // bounds threw away the optimized keyword loop this is inlined in (a history scan's short texts meet it early).
    const at = after + offsets[check]!;
    if (at < 0 || at >= text.length) return false;
    const code = text.charCodeAt(at);
    if (code >= 256 || sets[(check << 8) | code] === 0) return false;
  }
  return true;
}

/**
 * Each class's set, made once: contexts repeat a few classes position after position (the bare Discord token's 58
 * positions are two), and every scanner's automaton takes them again. Never written once made (`conditionsOf` copies).
 */
const SETS = new Map<string, Uint8Array>();

/**
 * Per byte, 1 where `chars` (a regex class's inside) allows it. Only printable ASCII characters, the tab (written as
 * itself) and ranges between them, no escape and no negation, so that no character past ASCII is ever allowed;
 * anything else throws.
 */
function setOf(chars: string): Uint8Array {
  const known = SETS.get(chars);
  if (known) return known;
  if (!/^[\t\x20-\x7e]+$/.test(chars) || chars.includes('\\') || chars.startsWith('^'))
    throw new Error(`a hit context allows ASCII characters only, written plainly: [${chars}]`);
  const pattern = new RegExp(`^[${chars}]$`);
  const set = new Uint8Array(256);
  for (let code = 0; code < 128; code++) if (pattern.test(String.fromCharCode(code))) set[code] = 1;
  SETS.set(chars, set);
  return set;
}
