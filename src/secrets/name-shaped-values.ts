/**
 * Values that name something rather than hold a secret: identifiers made of words (`cfg_access_key_2`), format strings
 * code fills in (`"pw{}".format(i)`) and media types (`application/vnd.ms-xpsdocument`). The generic rules reject these
 * under a secret-named key (generic-value.ts); each test is cheap, as keyword-dense data meets it on every line.
 */
import { codeAt } from './code-at.js';

/**
 * The word shape of a name: lowercase, capitalized or upper-case words joined by `_`, `-`, `.` or `=` or by camel
 * humps, each word optionally followed by up to four digits, a part of its own up to eight (a counter or a date:
 * `cfg_access_key_2`, `myAccessKey2`, `SECRET_REF_3`, `key_name_20240101`, `set=it=here`). `PascalCase2` is left
 * out: people choose passwords such as `BlueSky42`.
 */
const IDENTIFIER_SHAPE =
  /^(?:[a-z]+(?:[A-Z][a-z]+)*|[A-Z]+)\d{0,4}(?:[-_.=](?:(?:[a-z]+(?:[A-Z][a-z]+)*|[A-Z][a-z]+|[A-Z]+)\d{0,4}|\d{1,8}))*$/;
/** Short words and abbreviations without a vowel that names are made of (`my_key`, `cfg_db_key`, `svc-pwd`). */
const SHORT_WORDS = new Set(
  [
    'my id io to of on in is by up at as it no ok',
    'cfg cnf db pw pwd psw msg src dst tmp ctx cmd mgr svc srv std pkg cb fn jwt sql tls ssl ssh smtp http https',
    'xml tcp dns gcp kms pk sk ws prd stg dflt lvl cnt ctl crm cms qr bg fg px nr ts js rb gh gl vcs mq',
  ]
    .join(' ')
    .split(' '),
);
/** The longest of `SHORT_WORDS`. */
const LONGEST_SHORT_WORD = Math.max(...[...SHORT_WORDS].map((word) => word.length));

/**
 * `cfg_access_key_2`, `my_secret_name`, `myAccessKey2`, `SECRET_REF_3`: a name made of words, which names a credential
 * kept elsewhere and is none. Each word must read as one (see `isWordLike`) and there must be two: random text with
 * a `_` (`sk_live_4eC3…`, base64url, `Tr0ub4dor_3`) has digits inside its words, upper case mid-word or letters no
 * word has, and a lone `falcon_7` may be a chosen password.
 * On the hot path of keyword-dense data (a candidate per line), so one anchored regex decides most values, and the
 * words are then read from the name in place (`nameWords`), with no string made for any but a short word that only
 * the list of short words can pass.
 */
export function isIdentifierShaped(value: string): boolean {
  if (value.length > 80) return false;
  const name = withoutMarkingUnderscores(value);
  if (!IDENTIFIER_SHAPE.test(name)) return false;
  const count = nameWords(name);
  if (count < 2) return false;
  // A namespace prefix of one or two letters (`aj_` for Active Job) before two words that read as words.
  const first = count >= 3 && wordEnds[0]! <= 2 && name.charCodeAt(wordEnds[0]!) === UNDERSCORE ? 1 : 0;
  for (let word = first; word < count; word++)
    if (!isWordLikeIn(name, wordStarts[word]!, wordEnds[word]!)) return false;
  return true;
}

/** Where the words of the latest name read by `nameWords` start and end (a name of 80 characters has at most 80). */
const wordStarts = new Int32Array(81);
const wordEnds = new Int32Array(81);

/**
 * The words of `name` as `/[A-Z]?[a-z]+|[A-Z]+/g` matches them (a capital and lower-case letters, lower-case letters,
 * or a run of capitals), into `wordStarts` and `wordEnds`; returns how many. Anything else between them is skipped.
 */
function nameWords(name: string): number {
  let count = 0;
  let at = 0;
  while (at < name.length) {
    const code = name.charCodeAt(at);
    let end = at + 1;
    if (isUpper(code)) {
      if (isLower(codeAt(name, end))) while (isLower(codeAt(name, end))) end++;
      else while (isUpper(codeAt(name, end))) end++;
    } else if (isLower(code)) {
      while (isLower(codeAt(name, end))) end++;
    } else {
      at = end;
      continue;
    }
    wordStarts[count] = at;
    wordEnds[count] = end;
    count++;
    at = end;
  }
  return count;
}

function isUpper(code: number): boolean {
  return code >= 65 && code <= 90;
}

function isLower(code: number): boolean {
  return code >= 97 && code <= 122;
}

/** `isWordLike` of `name[start, end)` in lower case, a string made only for the list of short words. */
function isWordLikeIn(name: string, start: number, end: number): boolean {
  const length = end - start;
  if (length >= 3 && length <= 16 && readsAsWord(name, start, end, 0x20)) return true;
  return length <= LONGEST_SHORT_WORD && SHORT_WORDS.has(name.slice(start, end).toLowerCase());
}

/**
 * `value` without the underscores that mark a private or reserved name (`_aj_globalid`, `__meta__`): one or two
 * before a letter at its start, and a run of one or two after a letter or digit at its end. Read in code: the
 * regular expression that said so (`/^_{1,2}(?=[A-Za-z])|(?<=[A-Za-z0-9])_{1,2}$/g`) tried its look-behind at every
 * character of every value, and keyword-dense data judges a value per line.
 */
export function withoutMarkingUnderscores(value: string): string {
  let start = 0;
  if (value.charCodeAt(0) === UNDERSCORE) {
    const two = value.charCodeAt(1) === UNDERSCORE ? 2 : 1;
    if (isLetter(value.charCodeAt(two))) start = two;
  }
  let end = value.length;
  let run = 0;
  while (run < end && value.charCodeAt(end - 1 - run) === UNDERSCORE) run++;
  if ((run === 1 || run === 2) && end - run > 0) {
    const before = value.charCodeAt(end - run - 1);
    if (isLetter(before) || (before >= 48 && before <= 57)) end -= run;
  }
  return start === 0 && end === value.length ? value : value.slice(start, Math.max(start, end));
}

const UNDERSCORE = 95;

function isLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** The parts of a name: capitalized or lower-case words, upper-case runs (an acronym before a word keeps its last capital
 * for the word: `HTTPServer` is `HTTP`, `Server`), and digit runs. */
const NAME_PART = /[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+/g;

/**
 * `Ipv6CidrAssociations`, `x-amz-server-side-encryption-customer-key-MD5`, `SSECustomerKeyMD5`: an API's own name for a
 * field or a header, spelled in words. Looser than `isIdentifierShaped` (any case, any separators, an odd word that is
 * no word), so it is for names that mark weak evidence only: a key called by whose it is (`stripeKey`) holds an issued
 * key, and an issued key is random letters, whose case changes every few characters, so almost none of its letters sit
 * in parts of three or more that read as words. Three such words, and four in five of the letters in them, make a name.
 */
export function isSpelledInWords(value: string): boolean {
  const parts = value.match(NAME_PART);
  if (parts === null) return false;
  let letters = 0;
  let inWords = 0;
  let words = 0;
  for (const part of parts) {
    const code = part.charCodeAt(0);
    if (code >= 48 && code <= 57) continue;
    letters += part.length;
    if (part.length >= 3 && isWordLike(part.toLowerCase())) {
      inWords += part.length;
      words++;
    }
  }
  return words >= 3 && inWords * 5 >= letters * 4;
}

/**
 * Reads as a word of a name: a known short word or abbreviation, or 3 to 16 letters with a vowel, no run of four
 * consonants and no run of three vowels (`y` counts as both). Random letters break one of these in most words.
 */
export function isWordLike(word: string): boolean {
  if (SHORT_WORDS.has(word)) return true;
  if (word.length < 3 || word.length > 16) return false;
  return readsAsWord(word, 0, word.length, 0);
}

/**
 * `text[start, end)` has a vowel, no run of four consonants and no run of three vowels (`y` counts as both), each
 * character's code or'ed with `fold` first (0x20 reads a letter as its lower case). In code, as `/[aeiouy]/` and no
 * `/[^aeiouy]{4}|[aeiou]{3}/`: two regular expressions per word of every value.
 */
function readsAsWord(text: string, start: number, end: number, fold: number): boolean {
  let vowel = false;
  let consonants = 0;
  let vowels = 0;
  for (let at = start; at < end; at++) {
    const code = text.charCodeAt(at) | fold;
    if (code === 121) {
      vowel = true;
      consonants = 0;
      vowels = 0;
    } else if (code === 97 || code === 101 || code === 105 || code === 111 || code === 117) {
      vowel = true;
      consonants = 0;
      if (++vowels === 3) return false;
    } else {
      vowels = 0;
      if (++consonants === 4) return false;
    }
  }
  return vowel;
}

/**
 * Fields of a format string: `{}`, `{name}`, `{0!r:>8}` (Python, Rust, C#), `%s`, `%d`, `%(name)s` (printf, Python).
 * `%d` followed by a hex digit is a URL escape (`%dA`), not a field.
 */
const FORMAT_FIELD =
  /\{(?:\d{0,2}|[a-z_][a-z0-9_]{1,30})(?:![rsa])?(?::[^{}]{0,12})?\}|%(?:\([\w.]{1,30}\))?(?:[sr]|d(?![0-9A-Fa-f]))/g;

/**
 * `pw{}`, `user{}pass`, `p{pw}`, `x%sy`: a format string that code fills in (`"pw{}".format(i)`), not a password.
 * Only when what is left between the fields is lowercase words: a generated salt (WordPress) may hold `{a}` or `%s`
 * by chance, with capitals and other symbols around it.
 */
export function isFormatString(value: string): boolean {
  if (!value.includes('{') && !value.includes('%')) return false;
  const rest = value.replace(FORMAT_FIELD, '');
  return rest.length < value.length && /^[a-z0-9_.:-]*$/.test(rest);
}

/** `application/vnd.ms-xpsdocument` (a MIME map's `xpw=` entry): a media type. */
export const MIME_TYPE = /^(?:application|text|image|audio|video|font|model|multipart|message)\/[A-Za-z0-9][\w.+-]*$/;
