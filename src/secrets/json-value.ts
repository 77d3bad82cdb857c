import { endsWithWord, type HitCheck, isBase64Url } from './gate-checks.js';

/**
 * One look back from a keyword hit inside a JSON string value under an ordinary key (`"token_2": "cfg_auth_token_2",`),
 * shared by the checks that each read back over the same name to the key before it: the split-field and Terraform
 * forms' (`inNameField`), the env entry's (`namedByNameKey`) and the assignment gate's call check
 * (`quotedCallArgument`). On one line of JSON keys every value holds a keyword and each of the three read it again.
 */

/** The longest name read back; a longer one is left to the checks themselves. */
const NAME_REACH = 120;
/** The most blanks read on either side of the `:`. */
const MAX_BLANKS = 4;

/**
 * Per ASCII code, 1 for `[A-Za-z0-9_.-]`: the characters every one of those checks reads back over as the name's. A
 * table read in the loop, not a call per character: the first megabytes of a scan run in V8's interpreter.
 */
const NAME_CHARS = (() => {
  const table = new Uint8Array(128);
  for (let code = 0; code < 128; code++) if (code === 46 || isBase64Url(code)) table[code] = 1;
  return table;
})();

/** Where the blanks (` `, tab) that end at `end` start, or -1 when there are more than `MAX_BLANKS`. */
function blanksFrom(text: string, end: number): number {
  let at = end;
  while (at > 0 && (text.charCodeAt(at - 1) === 32 || text.charCodeAt(at - 1) === 9))
    if (end - --at > MAX_BLANKS) return -1;
  return at;
}

/**
 * Whether the hit ending at `after` is in a quoted name `"…"` (only `[A-Za-z0-9_.-]` between its quote and the hit)
 * that is the value of a quoted key whose name ends in neither `name` nor `key` (any case), blanks allowed around the
 * `:`. Each check in `refutedInJsonValue` is false there (`json-value.test.ts` holds them to it on random text).
 */
export function inOrdinaryJsonValue(text: string, after: number): boolean {
  const limit = Math.max(0, after - NAME_REACH);
  let at = after;
  for (let code = text.charCodeAt(at - 1); at > limit && code < 128 && NAME_CHARS[code] === 1; ) {
    at--;
    code = at > 0 ? text.charCodeAt(at - 1) : -1;
  }
  if (at <= limit || text.charCodeAt(at - 1) !== 34) return false;
  at = blanksFrom(text, at - 1);
  if (at <= 0 || text.charCodeAt(at - 1) !== 58) return false;
  at = blanksFrom(text, at - 1);
  if (at <= 0 || text.charCodeAt(at - 1) !== 34) return false;
  return !endsWithWord(text, at - 1, 'name') && !endsWithWord(text, at - 1, 'key');
}

const refuted = new WeakSet<HitCheck>();

/** Marks `check` as one that is false wherever `inOrdinaryJsonValue` is true (a test must hold it to that). */
export function refutedInJsonValue(check: HitCheck): HitCheck {
  refuted.add(check);
  return check;
}

/** Whether `check` was marked by `refutedInJsonValue`. */
export function isRefutedInJsonValue(check: HitCheck): boolean {
  return refuted.has(check);
}
