import { isBase64Url } from '../gate-checks.js';

/**
 * The key-name rule's word checks (`generic.ts`, `KEY_NAME_GATE`), each in two readings: of a text, and of a byte
 * scan's bytes (one byte per character, a non-ASCII unit as a byte of 0x80 or more) before any tile is cut
 * (`ByteHitCheck`). `key` in code stands mostly alone (`{ key: … }`, `key =>`) or inside a word (`monkey`,
 * `keyboard`): these turn such hits down from the bytes. The byte reading reads the same characters (a tile's start is
 * a line's, where the bytes hold a line feed, which the checks read as they read no character).
 */

const CODE_Y = 0x79;

function isAsciiDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** Whether `before` (the code before the keyword, -1 for none), `first` and `length` say the keyword starts a word. */
function startsWord(before: number, first: number, length: number): boolean {
  if (before === 95 || before === 45) return true;
  if (first >= 65 && first <= 90 && ((before >= 97 && before <= 122) || (before >= 48 && before <= 57))) return true;
  return length === 4 && !(before >= 0 && /[A-Za-z0-9.]/.test(String.fromCharCode(before)));
}

/** Whether the `key` or `auth` hit ending at `after` starts a word: after `_`, `-`, a camel hump, or alone (`auth`). */
export function startsNameWord(text: string, after: number): boolean {
  const length = (text.charCodeAt(after - 1) | 0x20) === CODE_Y ? 3 : 4;
  const start = after - length;
  return startsWord(start > 0 ? text.charCodeAt(start - 1) : -1, text.charCodeAt(start), length);
}

/**
 * Whether at most two digits and then no name character follow the `key` or `auth` hit ending at `after`, as
 * `KEY_NAME` ends a name (its separator starts with none): `primaryKeys`, `authority` and `keyboard` open no window.
 */
export function endsNameAfterDigits(text: string, after: number): boolean {
  let at = after;
  while (at < after + 2 && isAsciiDigit(text.charCodeAt(at))) at++;
  const code = text.charCodeAt(at);
  return !(isAsciiDigit(code) || isBase64Url(code) || code === 46);
}

/** `startsNameWord(…) && endsNameAfterDigits(…)` of bytes. */
export function keyNameWordBytes(bytes: Uint8Array, after: number): boolean {
  const length = ((bytes[after - 1] ?? 0) | 0x20) === CODE_Y ? 3 : 4;
  const start = after - length;
  if (!startsWord(start > 0 ? bytes[start - 1]! : -1, bytes[start] ?? -1, length)) return false;
  let at = after;
  while (at < after + 2 && isAsciiDigit(bytes[at] ?? -1)) at++;
  const code = at < bytes.length ? bytes[at]! : -1;
  return !(isAsciiDigit(code) || (code >= 0 && isBase64Url(code)) || code === 46);
}
