import type { HitContext } from './hit-context.js';

/**
 * Gates with a check in code ahead of their regex, for keywords found everywhere (`.`): on such a keyword even one
 * sticky regex test per hit costs more than the rest of the scan of ordinary text, while a look at two or three
 * characters around the hit turns nearly every hit down. The check may read before the hit as well as after it; it
 * must hold for at least one keyword hit of every match (the samples test proves it never hides a match sample).
 */
export type HitCheck = (text: string, after: number) => boolean;
const checks = new WeakMap<RegExp, HitCheck>();
const contexts = new WeakMap<RegExp, HitContext>();

/**
 * `gate`, whose regex runs only after a keyword hit that `check` accepts. A check must treat every code unit outside
 * ASCII alike and stop at it (as ASCII tables do). `context`, when given, is what the gate needs right around the
 * keyword, which the keyword pass checks before it records a hit (`hit-context.ts`): the gate must fail wherever it
 * does not hold.
 */
export function checkedGate(gate: RegExp, check: HitCheck, context?: HitContext): RegExp {
  checks.set(gate, check);
  if (context !== undefined) contexts.set(gate, context);
  return gate;
}

/** The hit context of a gate built by `checkedGate` with one. */
export function hitContextOf(gate: RegExp | undefined): HitContext | undefined {
  return gate === undefined ? undefined : contexts.get(gate);
}

/** The check of a gate built by `checkedGate` (by identity: the rule's own gate object). */
export function gateCheckOf(gate: RegExp | undefined): HitCheck | undefined {
  return gate === undefined ? undefined : checks.get(gate);
}

/** Per ASCII code, 1 for the characters of base64url (`A-Z a-z 0-9 _ -`). */
export const BASE64URL = (() => {
  const table = new Uint8Array(128);
  for (const char of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-') table[char.charCodeAt(0)] = 1;
  return table;
})();

/** Whether the UTF-16 code unit `code` is a base64url character. */
export function isBase64Url(code: number): boolean {
  return code < 128 && BASE64URL[code] === 1;
}

/**
 * Whether `text` holds `word` (lower-case letters and ASCII marks) right before `end`, its letters in any case: the
 * look back of a check that reads which key a name stands under (`name`, `<key`, `variable`).
 */
export function endsWithWord(text: string, end: number, word: string): boolean {
  if (end < word.length) return false;
  for (let index = 0; index < word.length; index++)
    if ((text.charCodeAt(end - word.length + index) | 0x20) !== word.charCodeAt(index)) return false;
  return true;
}

/**
 * Where the blanks (` `, tab) that end at `end` start, or -1 when they reach back to `limit` (then the gate's regex
 * decides). A text's start is read as a line's: tiles of whole lines (`byte-scan.ts`) give the verdicts the whole
 * text does.
 */
export function blanksStart(text: string, end: number, limit: number): number {
  let at = end;
  while (at > 0 && (text.charCodeAt(at - 1) === 32 || text.charCodeAt(at - 1) === 9)) if (--at <= limit) return -1;
  return at;
}

/** Whether `code` (a UTF-16 code unit, a byte, or -1 for none) is a space or a tab. */
export function isBlank(code: number): boolean {
  return code === 32 || code === 9;
}

/** Whether `code` (a UTF-16 code unit, a byte, or -1 for none) is `"` or `'`. */
export function isQuote(code: number): boolean {
  return code === 34 || code === 39;
}

/** Whether the UTF-16 code unit (or byte, or -1 for none) `code` is an ASCII letter or digit. */
export function isAlphanumeric(code: number): boolean {
  return code < 128 && BASE64URL[code] === 1 && code !== 95 && code !== 45;
}

/** Whether `count` letters or digits follow `after` (as a gate's `[A-Za-z0-9]{count}` needs there). */
export function alphanumericRun(text: string, after: number, count: number): boolean {
  if (!isAlphanumeric(text.charCodeAt(after + count - 1))) return false;
  for (let at = after; at < after + count; at++) if (!isAlphanumeric(text.charCodeAt(at))) return false;
  return true;
}
