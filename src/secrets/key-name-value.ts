/**
 * What may follow a name that ends in `Key` or `auth` for `generic-secret-key-name` to report it (its pattern is
 * `assignmentOf(KEY_NAME, '')`, its judge `judgeKeyName`). In typings and API models most such names stand before
 * a type or an object (`export type TagKey = string;`, `kmsKey?: KmsKey;`, `"RouteKey": {`, `"auth": [`): the
 * pattern matches nothing there, or only a value the judge turns down whatever its name. The gate's check reads
 * what follows the name as the pattern's separator and value would and turns such hits down before any window is cut.
 */
import { codeAt } from './code-at.js';
import { isBlank, isQuote } from './gate-checks.js';
import { byteAt } from './hit-bytes.js';

/** What `judgeKeyName` rejects in any value: fewer than 16 characters, no digit or no letter. */
export function tooWeakForKeyName(value: string): boolean {
  return value.length < 16 || !/[0-9]/.test(value) || !/[A-Za-z]/.test(value);
}

/** Per ASCII code: 1 where an unquoted value may not go on (`[^\s"'\`,;<>(){}[\]]`), 2 for a blank. */
const STOP = new Uint8Array(128);
for (const char of '\n\r\v\f"\'`,;<>(){}[]') STOP[char.charCodeAt(0)] = 1;
STOP[32] = 2;
STOP[9] = 2;

/** The longest unquoted value the pattern takes; the most blanks it allows around its separator. */
const MAX_BARE = 200;
const MAX_BLANKS = 8;

/**
 * False only when no match of the key-name pattern whose name ends at `after` (and at most two digits after it) can
 * be reported: the separator there is one the pattern has no form for (`?` without `=`, `!`), no value can start
 * after it (`: {`, `= [`, a line's end), or the value the pattern takes there is unquoted and too weak for the judge
 * (`= string`, `: KmsKey`). True whenever only the regex can tell (quoted values are the name gate's `quoted`
 * check's; `:=`, `,` and `[` forms, more blanks than the pattern allows, any code unit outside ASCII). Reads only
 * ahead, within the hit's line.
 */
export function keyNameValueMayFollow(text: string, after: number): boolean {
  let at = after;
  while (at < after + 2 && codeAt(text, at) >= 48 && codeAt(text, at) <= 57) at++;
  // The pattern's `(?:\\?["'])?` before its blanks.
  const quote = codeAt(text, at) === 92 ? codeAt(text, at + 1) : codeAt(text, at);
  if (quote === 34 || quote === 39) at += codeAt(text, at) === 92 ? 2 : 1;
  at = pastBlanks(text, at);
  if (at === -1) return true;
  const separator = codeAt(text, at);
  if (separator === 33) return false; // `!`: no form of the pattern starts with it
  if (separator === 63) return codeAt(text, at + 1) === 61; // `?=` only
  if (separator === 61) return valueMayPass(text, at + (codeAt(text, at + 1) === 62 ? 2 : 1), false);
  if (separator === 58 && codeAt(text, at + 1) !== 61) return valueMayPass(text, at + 1, true);
  return true;
}

/** Past at most `MAX_BLANKS` blanks from `from`; -1 when more follow (left to the regex). */
function pastBlanks(text: string, from: number): number {
  let at = from;
  while (isBlank(codeAt(text, at))) if (++at - from > MAX_BLANKS) return -1;
  return at;
}

/**
 * Whether a value the judge may accept can follow a separator ending at `from`. After a `:` (`colon`), a type
 * annotation ending in `=` (`key: string = "…"`) is a form of its own, whose value comes later: left to the regex.
 */
function valueMayPass(text: string, from: number, colon: boolean): boolean {
  const start = pastBlanks(text, from);
  if (start === -1) return true;
  const first = codeAt(text, start);
  // No value starts at the line's or text's end, nor at a character no value form starts with.
  if (first === -1 || (first < 128 && STOP[first] !== 0 && first !== 34 && first !== 39 && first !== 96)) return false;
  // Quoted, escaped-quoted and `&quot;` values, and text outside ASCII: the regex and the quoted check decide.
  if (first >= 128 || first === 34 || first === 39 || first === 96 || first === 92 || first === 38) return true;
  let at = start;
  let digit = false;
  let letter = false;
  for (let code = first; code !== -1; code = codeAt(text, ++at)) {
    if (code >= 128) return true;
    if (STOP[code] !== 0) break;
    // `=` or `?` inside the run may end a type annotation after a `:` (`key: T=…`).
    if (colon && (code === 61 || code === 63)) return true;
    if (code >= 48 && code <= 57) digit = true;
    else if ((code | 0x20) >= 97 && (code | 0x20) <= 122) letter = true;
  }
  if (at - start > MAX_BARE) return true;
  if (colon) {
    const next = pastBlanks(text, at);
    if (next === -1 || codeAt(text, next) === 61) return true;
  }
  return at - start >= 16 && digit && letter;
}

/*
 * The same three functions on the bytes the byte scan reads (`HitBytesTest`: every byte past ASCII stands for a code
 * unit past ASCII, which these treat alike), line for line; `key-name-value.test.ts` holds the two equal at every
 * offset of random text. A copy, not one function over a reader passed in, so that the string form, which every
 * handled `key` hit's gate runs, stays as it was.
 */

export function keyNameValueMayFollowBytes(bytes: Uint8Array, after: number): boolean {
  let at = after;
  while (at < after + 2 && byteAt(bytes, at) >= 48 && byteAt(bytes, at) <= 57) at++;
  const quote = byteAt(bytes, at) === 92 ? byteAt(bytes, at + 1) : byteAt(bytes, at);
  if (quote === 34 || quote === 39) at += byteAt(bytes, at) === 92 ? 2 : 1;
  at = pastBlanksBytes(bytes, at);
  if (at === -1) return true;
  const separator = byteAt(bytes, at);
  if (separator === 33) return false; // `!`: no form of the pattern starts with it
  if (separator === 63) return byteAt(bytes, at + 1) === 61; // `?=` only
  if (separator === 61) return valueMayPassBytes(bytes, at + (byteAt(bytes, at + 1) === 62 ? 2 : 1), false);
  if (separator === 58 && byteAt(bytes, at + 1) !== 61) return valueMayPassBytes(bytes, at + 1, true);
  return true;
}

function pastBlanksBytes(bytes: Uint8Array, from: number): number {
  let at = from;
  while (isBlank(byteAt(bytes, at))) if (++at - from > MAX_BLANKS) return -1;
  return at;
}

function valueMayPassBytes(bytes: Uint8Array, from: number, colon: boolean): boolean {
  const start = pastBlanksBytes(bytes, from);
  if (start === -1) return true;
  const first = byteAt(bytes, start);
  if (first === -1 || (first < 128 && STOP[first] !== 0 && first !== 34 && first !== 39 && first !== 96)) return false;
  if (first >= 128 || first === 34 || first === 39 || first === 96 || first === 92 || first === 38) return true;
  let at = start;
  let digit = false;
  let letter = false;
  for (let code = first; code !== -1; code = byteAt(bytes, ++at)) {
    if (code >= 128) return true;
    if (STOP[code] !== 0) break;
    if (colon && (code === 61 || code === 63)) return true;
    if (code >= 48 && code <= 57) digit = true;
    else if ((code | 0x20) >= 97 && (code | 0x20) <= 122) letter = true;
  }
  if (at - start > MAX_BARE) return true;
  if (colon) {
    const next = pastBlanksBytes(bytes, at);
    if (next === -1 || byteAt(bytes, next) === 61) return true;
  }
  return at - start >= 16 && digit && letter;
}

/** The longest quoted value a pattern takes (`"(?<secretQuoted>[^"\r\n]{1,200})"`, as `quotedValueAt` reads it). */
const MAX_QUOTED = 200;

/**
 * On the bytes the byte scan reads, whether the name that ends at `end` stands before a quoted value that
 * `tooWeakForKeyName` turns down, or one whose quote does not close on its line within `MAX_QUOTED` (the key-name
 * gate's `quoted` check, `GateCheck.rejectsQuoted`, with `quotedValueAt`'s reading: the separator past one backslash,
 * one quote and blanks is `=` or `:`, then past `:`, `=`, `>` and blanks, a quote). `"limit_key": "MaxResults"` in
 * API models: 5,000 of `key`'s hits on the rule-cost row's 64 MB that passed every other test.
 */
export function quotedTooWeakBytes(bytes: Uint8Array, end: number): boolean {
  let at = end;
  if (byteAt(bytes, at) === 92) at++;
  if (isQuote(byteAt(bytes, at))) at++;
  while (isBlank(byteAt(bytes, at))) at++;
  const separator = byteAt(bytes, at);
  if (separator !== 58 && separator !== 61) return false;
  for (let code = separator; code === 58 || code === 61 || code === 62; code = byteAt(bytes, at)) at++;
  while (isBlank(byteAt(bytes, at))) at++;
  const quote = byteAt(bytes, at);
  if (!isQuote(quote)) return false;
  const start = at + 1;
  let digit = false;
  let letter = false;
  for (at = start; at <= start + MAX_QUOTED; at++) {
    const code = byteAt(bytes, at);
    if (code === quote) return at - start < 16 || !digit || !letter;
    if (code === -1 || code === 10 || code === 13) return true;
    if (code >= 48 && code <= 57) digit = true;
    else if ((code | 0x20) >= 97 && (code | 0x20) <= 122) letter = true;
  }
  return true;
}
