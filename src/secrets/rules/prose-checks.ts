/**
 * The prose-key rules' gate checks (`providers-prose.ts`), each in two readings: of a text, as every gate check reads,
 * and of a byte scan's bytes (one byte per character, a non-ASCII unit as a byte of 0x80 or more, `byte-scan.ts`), so
 * that a hit of `key` or `token` the check turns down is turned down before any tile is cut (`gate-checks.ts`,
 * `ByteHitCheck`). Each byte reading is false only where the text reading of a tile holding the hit's line is:
 * `prose-checks.test.ts` compares them.
 */

/** The lengths of `key` and `token`. */
const PROSE_KEYWORD_LENGTHS = [3, 5];

/** Whether `code` is a tab or a space. */
function isBlank(code: number | undefined): boolean {
  return code === 32 || code === 9;
}

/** Whether `code` is `"` or `'`. */
function isQuote(code: number | undefined): boolean {
  return code === 34 || code === 39;
}

/** Whether `code` is an ASCII letter or digit (`undefined` and NaN, past either end, are not). */
function isWordCode(code: number | undefined): boolean {
  return (
    code !== undefined && ((code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122))
  );
}

/**
 * Whether `key` or `token` (whichever ended at `after`) has blanks before it and a word's letter or digit before those,
 * as `PROSE_KEY` needs: `{ token: … }` and an indented `key: …` (object literals in code) are not prose.
 */
function wordThenSpaceBefore(text: string, after: number): boolean {
  for (const length of PROSE_KEYWORD_LENGTHS) {
    let at = after - length - 1;
    if (at < 0 || !isBlank(text.charCodeAt(at))) continue;
    while (at > 0 && isBlank(text.charCodeAt(at))) at--;
    if (isWordCode(text.charCodeAt(at))) return true;
  }
  return false;
}

/** `wordThenSpaceBefore` of bytes. */
function wordThenSpaceBeforeBytes(bytes: Uint8Array, after: number): boolean {
  for (const length of PROSE_KEYWORD_LENGTHS) {
    let at = after - length - 1;
    if (at < 0 || !isBlank(bytes[at])) continue;
    while (at > 0 && isBlank(bytes[at])) at--;
    if (isWordCode(bytes[at])) return true;
  }
  return false;
}

/**
 * The named key's gate after `wordThenSpaceBefore`: past one optional quote and any blanks, `=`, `:` or `-` (the
 * regex then reads what the `-` form needs).
 */
function separatorAfter(text: string, after: number): boolean {
  let at = after;
  if (isQuote(text.charCodeAt(at))) at++;
  while (isBlank(text.charCodeAt(at))) at++;
  const code = text.charCodeAt(at);
  return code === 61 || code === 58 || code === 45;
}

/** `separatorAfter` of bytes. */
function separatorAfterBytes(bytes: Uint8Array, after: number): boolean {
  let at = after;
  if (isQuote(bytes[at])) at++;
  while (isBlank(bytes[at])) at++;
  const code = bytes[at];
  return code === 61 || code === 58 || code === 45;
}

/** The named key's gate check. */
export function namedKeyCheck(text: string, after: number): boolean {
  return wordThenSpaceBefore(text, after) && separatorAfter(text, after);
}

/** `namedKeyCheck` of bytes. */
export function namedKeyCheckBytes(bytes: Uint8Array, after: number): boolean {
  return wordThenSpaceBeforeBytes(bytes, after) && separatorAfterBytes(bytes, after);
}

/** Per ASCII code, 1 where the spaced key's value may not go on (`[^\s"'\`,;<>(){}[\]\\&]`). */
const SPACED_VALUE_STOP = new Uint8Array(128);
for (const char of ' \t\n\r\v\f"\'`,;<>(){}[]\\&') SPACED_VALUE_STOP[char.charCodeAt(0)] = 1;

/**
 * The spaced key's gate in code, for its keywords' hits in ordinary code (`key`, `token`, `secret` and `access` stand
 * mostly before a letter, `_`, a quote, `:` or `(`): past one optional `s` and one optional quote, 1 to 4 blanks, an
 * optional quote, a letter or digit and 19 more characters of a value.
 */
export function spacedValueAfter(text: string, after: number): boolean {
  let at = after;
  if (text.charCodeAt(at) === 115) at++; // s
  if (isQuote(text.charCodeAt(at))) at++;
  let blanks = 0;
  while (blanks < 5 && isBlank(text.charCodeAt(at + blanks))) blanks++;
  if (blanks === 0 || blanks > 4) return false;
  at += blanks;
  if (isQuote(text.charCodeAt(at))) at++;
  if (!isWordCode(text.charCodeAt(at))) return false;
  for (let next = at + 1; next <= at + 19; next++) {
    const code = text.charCodeAt(next);
    if (Number.isNaN(code) || (code < 128 && SPACED_VALUE_STOP[code] === 1)) return false;
  }
  return true;
}

/** `spacedValueAfter` of bytes. */
export function spacedValueAfterBytes(bytes: Uint8Array, after: number): boolean {
  let at = after;
  if (bytes[at] === 115) at++; // s
  if (isQuote(bytes[at])) at++;
  let blanks = 0;
  while (blanks < 5 && isBlank(bytes[at + blanks])) blanks++;
  if (blanks === 0 || blanks > 4) return false;
  at += blanks;
  if (isQuote(bytes[at])) at++;
  if (!isWordCode(bytes[at])) return false;
  for (let next = at + 1; next <= at + 19; next++) {
    const code = bytes[next];
    if (code === undefined || (code < 128 && SPACED_VALUE_STOP[code] === 1)) return false;
  }
  return true;
}
