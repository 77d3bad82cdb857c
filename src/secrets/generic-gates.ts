import { namedByNameKey } from './env-entry.js';
import { BASE64URL, blanksStart, checkedGate } from './gate-checks.js';
import { rejectedOnItsOwn, secretValueRejected } from './generic-value.js';
import { refutedInJsonValue } from './json-value.js';
import { nameGate } from './name-gate.js';
import { forgetNextIndexes, NextIndex } from './next-index.js';

/**
 * What `GATES.xmlAttribute` needs, read in code: a quote within 40 characters of the line, then a blank (before
 * `value=`) or a `>` within 80 characters before any `<`. A JSON key (`"api_key": "…",`) has no `>` on its line.
 */
export function closesXmlAttribute(text: string, after: number): boolean {
  // The engine's own searches (not a loop over each character: a scan's first megabytes run before its loops are
  // compiled), each remembered for the next hit: no string is cut for a hit.
  const quote = quotes.next(text, after);
  if (quote === -1 || quote - after > 40) return false;
  const lineFeed = lineFeeds.next(text, after);
  if (lineFeed !== -1 && lineFeed < quote) return false;
  const carriageReturn = carriageReturns.next(text, after);
  if (carriageReturn !== -1 && carriageReturn < quote) return false;
  const next = text.charCodeAt(quote + 1);
  if (next === 32 || next === 9) return true;
  const stop = angleStops.next(text, quote + 1, Math.min(text.length, quote + 82));
  return stop !== -1 && text.charCodeAt(stop) === 62;
}

/** How far `inAttributeValue` reads back before it leaves the verdict to the gate. */
const ATTRIBUTE_REACH = 120;

/**
 * Whether a keyword hit ending at `after` may be in a quoted attribute value, as the XML-attribute patterns' names are
 * (`name="…"`, `key = "…"`): reading back over the name (no quote, no line end) to its quote, blanks and then `=`. A
 * name in a JSON key or value (`"api_key": "cfg_token_2"`) has `{`, `,` or `:` there. Reads back only; a name outside
 * ASCII or longer than `ATTRIBUTE_REACH` is left to the gate (true).
 */
export function inAttributeValue(text: string, after: number): boolean {
  const limit = after - ATTRIBUTE_REACH;
  let at = after;
  for (; at > 0; at--) {
    if (at <= limit) return true;
    const code = text.charCodeAt(at - 1);
    if (code === 34) break;
    if (code === 10 || code === 13) return false;
    if (code >= 128) return true;
  }
  if (at === 0) return false;
  at = blanksStart(text, at - 1, limit);
  if (at === -1) return true;
  return at > 0 && text.charCodeAt(at - 1) === 61;
}

/**
 * The XML-attribute gate's check: the name's quote closing after it, the name in an attribute value
 * (`inAttributeValue`). The look back second: a JSON key's hit (`"api_key": …`) is turned down ahead, and a JSON
 * value's bit is cleared by the shape mask before the check is asked (`withoutJsonRefuted`).
 */
function xmlAttributeCheck(text: string, after: number): boolean {
  return closesXmlAttribute(text, after) && inAttributeValue(text, after);
}

const quotes = new NextIndex('"');
const lineFeeds = new NextIndex('\n');
const carriageReturns = new NextIndex('\r');

/**
 * The first `<`, `>` or line end at or after an offset, remembered for the latest text: keyword hits come in order,
 * and on one line of JSON keys the next is megabytes on, so each hit read its 80 characters again.
 */
class AngleStops {
  private text = '';
  private from = 0;
  /** Nothing stops in `[from, scanned)`; `text[scanned]` stops when `found`. */
  private scanned = 0;
  private found = false;

  /** The offset of the first stop in `[from, limit)`, or -1. */
  next(text: string, from: number, limit: number): number {
    let at = from;
    if (text === this.text && this.from <= from && from <= this.scanned) {
      if (this.found) return this.scanned < limit ? this.scanned : -1;
      at = this.scanned;
    } else {
      this.text = text;
      this.from = from;
    }
    for (; at < limit; at++) {
      const code = text.charCodeAt(at);
      if (code === 60 || code === 62 || code === 10 || code === 13) {
        this.scanned = at;
        this.found = true;
        return at;
      }
    }
    this.scanned = Math.max(at, limit);
    this.found = false;
    return -1;
  }

  forget(): void {
    this.text = '';
    this.from = 0;
    this.scanned = 0;
    this.found = false;
  }
}
const angleStops = new AngleStops();

/**
 * Called as each text's scan starts. Within a text the string is the same one, and `===` compares references; a new
 * text of equal length (a copy of the last file, next in a queue sorted by size, or one that differs only at its end)
 * would be compared character by character at every hit: a copy of a 2 MB line of JSON keys took minutes.
 */
export function forgetLastText(): void {
  angleStops.forget();
  forgetNextIndexes();
}

/**
 * How many name characters may follow a keyword in an assignment: the pattern's 40 after the name's core, plus the
 * most of a core that can follow its keyword (`passphrase` after the keyword `pass`). At 40 a name such as
 * `db_password_` and 37 more characters, which the pattern reports, was turned down at its gate.
 */
const ASSIGNMENT_NAME_RUN = 40 + 'phrase'.length;

/**
 * The assignment rules' gate (`assignmentPattern`), `quoted` its check of a quoted value. Besides the separator's first
 * character it reads what the pattern needs next, where nothing the pattern takes can follow: a `?` or `!` only
 * before `=` (`?=`, `!=`; not TypeScript's optional property `nextToken?: NextToken;`), and after `=` or `:` (past
 * up to two more of `=`, `:`, `>` (`===`, `=>`) and up to 8 blanks, as the pattern's separator reads) no character
 * that no value starts with (`"NextToken": {}`, `: [`, the line's end). A value the pattern takes starting inside that
 * run starts with `=` or `:`, which `rejectedOnItsOwn` turns down in every rule that has this gate; a longer run reads
 * as a pass (bounded: a streamed scan's gate reads a few dozen characters past the hit). These were 14,900 of
 * `generic-secret`'s 21,598 windows on the rule-cost row's 64 MB (aws-sdk typings and API models), and the 923 rules'
 * pass over it took 1.12x less CPU without them and the quoted check below (`docs/benchmarks.md`, helper "gates").
 */
function assignmentGate(quoted: (value: string) => boolean): RegExp {
  return nameGate(
    { run: ASSIGNMENT_NAME_RUN, at: 'separator', chars: '=:,?![', quoted, call: true },
    String.raw`\\?["']?[ \t]{0,8}(?:[=:](?![=:>]{0,2}[ \t]{0,8}(?:[{}()\[\];,<\r\n\f\v]|$))|[?!]=|,[ \t]{0,16}["']|\[[0-9]{0,4}\][ \t]{0,4}=)`,
  );
}

/** How far the command-line and macro checks read back before they leave the verdict to the regex. */
const STRETCH_REACH = 128;

/**
 * Where the stretch of name characters and blanks (`[A-Za-z0-9_.-]`, space, tab) that ends at `after` starts, or -1
 * past `STRETCH_REACH`. A name in these patterns, the blanks before it and the `-` or the word before those are all in
 * it (a name's core may hold a space or a `.`: `--api key`, `--client.secret`). Reads back only; stops at a line feed
 * and at anything outside ASCII.
 */
function stretchStart(text: string, after: number): number {
  const limit = after - STRETCH_REACH;
  let at = after;
  for (; at > 0; at--) {
    if (at <= limit) return -1;
    const code = text.charCodeAt(at - 1);
    if (!(code === 32 || code === 9 || (code < 128 && (BASE64URL[code] === 1 || code === 46)))) break;
  }
  return at;
}

/**
 * The command-line gate's check: what `cliFlag`'s pattern needs before the name. A `-` after a blank (or where a line
 * starts: a tile's first character, which a whole text's line start must read as too), or `env` or `arg` before a
 * blank, in the stretch before the hit. Prose after a name (`NextToken to use to retrieve the next page`) has
 * neither: `generic-secret-cli-flag`'s windows on the rule-cost row's 64 MB went from 9,723 to 986 and `-define`'s
 * (`followsDefineWord`) from 9,708 to 1,187, about 1 % of the corpus's pass (`docs/benchmarks.md`, helper "gates").
 */
export function startsCliFlag(text: string, after: number): boolean {
  const start = stretchStart(text, after);
  if (start === -1) return true;
  for (let at = start; at < after; at++) {
    if (text.charCodeAt(at) !== 45) continue;
    const before = at === 0 ? 10 : text.charCodeAt(at - 1);
    if (before === 10 || before === 32 || before === 9) return true;
  }
  return ENV_WORD.test(text.slice(start, after));
}
const ENV_WORD = /(?:env|arg)[ \t]/i;

/** The macro gate's check: `define`, `global` or `set` before a blank in the stretch before the hit (`defineMacro`). */
export function followsDefineWord(text: string, after: number): boolean {
  const start = stretchStart(text, after);
  return start === -1 || DEFINE_WORD.test(text.slice(start, after));
}
const DEFINE_WORD = /(?:define|global|set)[ \t]/i;

/** Gates (see `SecretRule.gate`): what must follow a keyword hit for each generic shape to be possible at all. */
export const GATES = {
  /**
   * `_PASSWORD=`, `": "`, `\\": \\"`, `', '` (PHP define), `?=` (make). A quoted value after `=` or `:` is what
   * `assignmentPattern`'s quoted groups hold: one its rules reject on its own (`"Enter your password"`) stops the hit.
   * A `,` counts only after a call's first argument, quoted, and before a quoted one, as in the pattern: a keyword
   * inside a JSON value (`"cfg_access_key_2", "token_3": …`, on a line or one per line) then stops here.
   * The password rule's gate (see `assignmentGate`).
   */
  assignment: assignmentGate(rejectedOnItsOwn),
  /**
   * The secret rule's: a quoted value that its validator turns down whatever the name (`"input_token": "NextToken"`
   * in API models, 4,300 of its 21,598 windows on the rule-cost row's 64 MB) stops the hit too.
   */
  secretAssignment: assignmentGate(secretValueRejected),
  /** A provider word early in a longer name: `twilio_auth_token =`. */
  namedValue: nameGate({ run: 80, at: 'separator', chars: '=:' }, String.raw`\\?["']?[ \t]{0,4}[=:]`),
  /** The rest of the element name (which may hold a namespace `:`), then `>`. */
  xmlElement: nameGate({ run: 30, at: 'end', chars: ':>' }, '', '', '[A-Za-z0-9_.:-]{0,30}>'),
  /** The rest of the quoted name, then the `value="` attribute or the element's text (`name="api_key">`). */
  xmlAttribute: checkedGate(
    /[^"\r\n]{0,40}"(?:[ \t]+value[ \t]*=|[^<>\r\n]{0,80}>)/i,
    refutedInJsonValue(xmlAttributeCheck),
  ),
  /** A flag (`--api-token=`, `-p `) or a Dockerfile's `ENV`/`ARG` name, then a blank or `=` (`startsCliFlag`). */
  cliFlag: checkedGate(nameGate({ run: 40, at: 'end', chars: ' \t=' }, '[ \\t=]'), startsCliFlag),
  /** `#define`, `%global` or `set`, the name, then a blank (`followsDefineWord`). */
  defineMacro: checkedGate(nameGate({ run: 30, at: 'end', chars: ' \t' }, '[ \\t]'), followsDefineWord),
  /**
   * A container env entry's name ending its line (`- name: DB_PASSWORD`, before or after its `value:` line) or its
   * flow mapping's field (`{value: …, name: DB_PASSWORD}`), and a `name` key before it (`namedByNameKey`).
   */
  k8sEnv: checkedGate(
    nameGate({ run: 40, at: 'separator', chars: '\r\n,}' }, String.raw`["']?[ \t]*(?:\r?\n|[,}])`),
    refutedInJsonValue(namedByNameKey),
  ),
  netrc: /[a-z]{0,4}[ \t]/,
  /** `scheme://user:` */
  urlUser: /[^\s:/@'"`<>]{0,100}:/,
} as const;
