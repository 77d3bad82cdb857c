import { hasValidCloudflareChecksum, hasValidTokenChecksum } from './checksum.js';
import { shannonEntropy } from './entropy.js';
import { FIREBASE_SDK_TEST_KEYS, ONEPASSWORD_DOCS_EXAMPLE_KEYS } from './published-test-keys.js';

/**
 * Values that have the shape of a secret but are not one: placeholders, documentation examples, references to where
 * the real value lives (`${VAR}`, `process.env.X`), well-known public test keys. Applied to every rule's secret.
 */

/**
 * Words that mark a value as a stand-in (case-insensitive; where they count: `holdsPlaceholderWord`). `<name>` is a
 * stand-in, but not any `<…>`: generated salts (WordPress) hold `<`, `>` and `{` at random. ERB and PHP tags are
 * templates.
 */
const PLACEHOLDER_WORDS =
  /example|placeholder|changeme|change[_-]me|replace[_-]?me|your[_-]?(?:own[_-]?)?(?:api|secret|token|key|pass|access|client|app|db|auth|password)|dummy|redacted|insert[_-]|xxxx|\*\*\*|\.\.\.|\u2026|sample[_-]?(?:key|token|secret)|fake[_-]?(?:key|token|secret|pass)|notreal|not[_-]a[_-]real|todo|fixme|<[A-Za-z_][\w .:-]*>|<%|%>|<\?|\?>/i;

/** References to the real value somewhere else: templates, env lookups, secret managers. */
const REFERENCE =
  /^(?:\$\{|\$\(|\$[A-Za-z_]|\{\{|%\(?[A-Za-z_]|%[A-Za-z_]+%|#\{|@\{|\[\[|ENC\[|!vault|vault:|arn:aws:secretsmanager|secretsmanager:|projects\/[^/]+\/secrets\/|env\(|process\.env|os\.environ|os\.getenv|getenv|System\.getenv|ENV\[|Deno\.env)/i;

/** The same with no anchor, for values that only contain a reference (`"Bearer ${TOKEN}"`). */
const EMBEDDED_REFERENCE = /\$\{[^}]*\}|\{\{[^}]*\}\}|\$\([^)]*\)/;

/** Published example and local-emulator credentials, public by design. */
const WELL_KNOWN = new Set([
  // AWS documentation examples.
  'AKIAIOSFODNN7EXAMPLE',
  'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  // Azurite / Azure Storage Emulator's published account key (https://learn.microsoft.com/azure/storage/common/storage-use-azurite).
  'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==',
  ...FIREBASE_SDK_TEST_KEYS,
  ...ONEPASSWORD_DOCS_EXAMPLE_KEYS,
]);

/** jwt.io's default example signature. */
const JWT_IO_SIGNATURE = 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';

export function isPlaceholder(value: string): boolean {
  if (WELL_KNOWN.has(value)) return true;
  if (value.includes(JWT_IO_SIGNATURE)) return true;
  if (holdsPlaceholderWord(value)) return true;
  if (REFERENCE.test(value) || EMBEDDED_REFERENCE.test(value)) return true;
  // Long blobs (key material) legitimately hold runs like `AAAAAAAA`; the run check is for short tokens.
  // Dropbox long-lived tokens carry a fixed `AAAAAAAAAA` run at offset 11 by design: judge the rest of the token.
  if (DROPBOX_LONG_LIVED.test(value)) return isLowVariety(value.slice(0, 11) + value.slice(21));
  return value.length <= KEY_MATERIAL_LENGTH && isLowVariety(value);
}

/** Past this length a value is key material (a key store's base64, a PEM body), not a token someone typed. */
const KEY_MATERIAL_LENGTH = 100;
/** Bits per character under which a long value is too plain to be random key material (base64 of a key is about 6). */
const KEY_MATERIAL_ENTROPY = 4.5;
const PLACEHOLDER_WORDS_ALL = new RegExp(PLACEHOLDER_WORDS.source, 'gi');
const LETTER_OR_DIGIT = /[A-Za-z0-9]/;
/** Random base64 spells a given six-letter word in one case about once in 10^10 characters. */
const WORD_LENGTH_BY_DESIGN = 6;
/**
 * In a short value, a word of this length or more counts anywhere when written as a person writes it; a shorter one
 * (`todo`, `xxxx`) only where it starts or ends a run of letters and digits: 36 random base62 characters spell `todo`
 * in one of its usual casings about once in 10^5 tokens, and at one end of the run about once in 10^6.
 */
const WORD_LENGTH_ANYWHERE = 5;

/** Formats whose last characters are a checksum of their random part (GitHub, npm, Cloudflare). */
const CHECKSUMMED_TOKEN = /^(?:gh[pousr]|npm)_[A-Za-z0-9]{36}$/;
const CHECKSUMMED_CLOUDFLARE = /^cf(?:k|ut|at)_[A-Za-z0-9]{40}[a-f0-9]{8}$/;

/**
 * A provider token whose checksum holds: its random part was made by the provider's generator, not typed, so a word in
 * it is chance (a hand-made `ghp_XXXX…` fails the checksum). Judged like key material.
 */
function carriesChecksum(value: string): boolean {
  return (
    (CHECKSUMMED_TOKEN.test(value) && hasValidTokenChecksum(value)) ||
    (CHECKSUMMED_CLOUDFLARE.test(value) && hasValidCloudflareChecksum(value))
  );
}

/** Where people start a new capital inside a stand-in's word (`ToDo`, `FixMe`, `YourApiKey`, `NotAReal`). */
const WORD_PART =
  /password|your|own|api|secret|token|key|pass|access|client|app|db|auth|to|do|fix|me|change|replace|not|real|place|holder|sample|fake|insert|a/y;
/** Parts people write in capitals inside a camel-case word (`YourAPIKey`, `yourDB`). */
const ACRONYM_PART = /^(?:API|DB|APP)$/;

function partsOf(word: string): string[] {
  const parts: string[] = [];
  for (const piece of word.split(/[_-]/)) {
    const lower = piece.toLowerCase();
    let at = 0;
    while (at < piece.length) {
      WORD_PART.lastIndex = at;
      const part = WORD_PART.exec(lower);
      const end = part ? at + part[0].length : piece.length;
      parts.push(piece.slice(at, end));
      at = end;
    }
  }
  return parts.filter((part) => part.length > 0);
}

const capitalised = (part: string) => part === part[0]!.toUpperCase() + part.slice(1).toLowerCase();

/**
 * Whether a stand-in's word is cased as people write it: one case (`todo`, `TODO`, `CHANGE_ME`), capitalised
 * (`Todo`, `Example`), or camel case by its parts (`ToDo`, `fixMe`, `YourApiKey`, `yourAPI`). Random characters spell
 * it in any of 2^n casings (`tODo`, `XxXx`, `dUmMy`), which no person types.
 */
function writtenByHand(word: string): boolean {
  const lower = word.toLowerCase();
  if (word === lower || word === word.toUpperCase() || capitalised(word)) return true;
  return partsOf(word).every(
    (part, i) => capitalised(part) || (i === 0 && part === part.toLowerCase()) || (i > 0 && ACRONYM_PART.test(part)),
  );
}

/**
 * Whether the value holds a stand-in's word. Random characters spell a short word now and then (a 1,400-character
 * base64 store holds `todo` as `tODo` or the like about once in a thousand; a 36-character token about once in 10^4),
 * so a word counts only where chance does not spell it: standing apart (no letter or digit on either side), or written
 * as a person writes it (`writtenByHand`) and, in a short value, either `WORD_LENGTH_ANYWHERE` long or at one end of
 * its run of letters and digits. In long key material, and in a provider token whose checksum holds, only a word
 * standing apart or written by hand and `WORD_LENGTH_BY_DESIGN` long counts (AWS's example session token holds
 * `EXAMPLE` mid-token), or any word in a long value too plain to be random. Marks such as `...` count anywhere.
 */
function holdsPlaceholderWord(value: string): boolean {
  if (!PLACEHOLDER_WORDS.test(value)) return false;
  const material = value.length > KEY_MATERIAL_LENGTH || carriesChecksum(value);
  PLACEHOLDER_WORDS_ALL.lastIndex = 0;
  for (let match = PLACEHOLDER_WORDS_ALL.exec(value); match; match = PLACEHOLDER_WORDS_ALL.exec(value)) {
    const word = match[0];
    // Marks (`...`, `***`, `<name>`, `<%`) never turn up in base64 by chance: they count wherever they are.
    if (!LETTER_OR_DIGIT.test(word[0] ?? '')) return true;
    const apartBefore = !LETTER_OR_DIGIT.test(value[match.index - 1] ?? '');
    const apartAfter = !LETTER_OR_DIGIT.test(value[match.index + word.length] ?? '');
    if (apartBefore && apartAfter) return true;
    if (writtenByHand(word)) {
      if (material ? word.length >= WORD_LENGTH_BY_DESIGN : word.length >= WORD_LENGTH_ANYWHERE) return true;
      if (!material && (apartBefore || apartAfter)) return true;
    }
    PLACEHOLDER_WORDS_ALL.lastIndex = match.index + 1;
  }
  return value.length > KEY_MATERIAL_LENGTH && shannonEntropy(value) < KEY_MATERIAL_ENTROPY;
}

const DROPBOX_LONG_LIVED = /^[A-Za-z0-9]{11}AAAAAAAAAA[A-Za-z0-9_=-]{43}$/;

/**
 * `aaaaaaaa`, `12345678`, `abcdefgh`, `…9876543210`: a value with long runs or a sequence counting up or down, which
 * people type into stand-ins. A random generator makes one by chance only from a small alphabet: 6 of a kind turn up
 * in 36 random digits about once in 3,000 (a Slack token's numeric parts) and in 64 hex digits about once in 10^4. So a
 * run counts when it is `LOW_VARIETY_RUN` long among letters and digits of every kind, longer among only digits or only
 * hex digits (`CHANCE_FREE_RUN`; digits among a token's letters, as in Slack's), or when it makes up a third of the value
 * or a whole field of it (a crypt hash's salt `12345678`).
 */
function isLowVariety(value: string): boolean {
  // Characters in the run of equal ones, of ones counting up, and of ones counting down, ending at `i - 1`.
  let same = 1;
  let up = 1;
  let down = 1;
  for (let i = 1; i < value.length; i++) {
    const step = value.charCodeAt(i) - value.charCodeAt(i - 1);
    if (step === 0) same++;
    else if (same >= LOW_VARIETY_RUN && runCounts(value, i - same, i)) return true;
    else same = 1;
    if (step === 1) up++;
    else if (up >= LOW_VARIETY_RUN && runCounts(value, i - up, i)) return true;
    else up = 1;
    if (step === -1) down++;
    else if (down >= LOW_VARIETY_RUN && runCounts(value, i - down, i)) return true;
    else down = 1;
  }
  const end = value.length;
  return [same, up, down].some((run) => run >= LOW_VARIETY_RUN && runCounts(value, end - run, end));
}

/** Whether a run of `LOW_VARIETY_RUN` or more at `start…end` marks a stand-in (see `isLowVariety`). */
function runCounts(value: string, start: number, end: number): boolean {
  const run = end - start;
  return run * 3 >= value.length || run >= chanceFreeRun(value, start, end);
}

const LOW_VARIETY_RUN = 6;
/** Run lengths that random digits (36 of them: 10^-7 or so) and random hex digits (64 of them) practically never make. */
const CHANCE_FREE_RUN = { digits: 9, hex: 8 } as const;

/** The run length that counts at `start…end`, by the alphabet of the letters and digits around it. */
function chanceFreeRun(value: string, start: number, end: number): number {
  let from = start;
  let to = end;
  while (from > 0 && LETTER_OR_DIGIT.test(value[from - 1]!)) from--;
  while (to < value.length && LETTER_OR_DIGIT.test(value[to]!)) to++;
  const around = value.slice(from, to);
  // A run that is a whole field (a crypt hash's salt `$5$12345678$…`) was typed, not drawn.
  if (!LETTER_OR_DIGIT.test(value[start]!) || around.length === end - start) return LOW_VARIETY_RUN;
  // A value of digits alone (an id, a number someone typed: `0/1203456789012345`) keeps the short length.
  if (/^[0-9]+$/.test(around)) return /[A-Za-z]/.test(value) ? CHANCE_FREE_RUN.digits : LOW_VARIETY_RUN;
  if (/^[0-9a-f]+$/.test(around) || /^[0-9A-F]+$/.test(around)) return CHANCE_FREE_RUN.hex;
  return LOW_VARIETY_RUN;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX_DIGEST = /^(?:[0-9a-f]{32}|[0-9a-f]{40}|[0-9a-f]{64}|[0-9a-f]{128})$/i;
const INTEGRITY = /^(?:sha1|sha256|sha384|sha512)-[A-Za-z0-9+/]+=*$/;
const DATA_URI = /^data:[\w/+.-]+;base64,/;
/** crypt(3)-style password hashes: bcrypt, argon2, sha-crypt, pbkdf2, scrypt. */
const PASSWORD_HASH = /^\$(?:2[abxy]?|argon2(?:id|i|d)|[156y]|pbkdf2[\w-]*|scrypt|7)\$/;

/** Identifiers of things rather than keys to them: UUIDs, digests, SRI integrity strings, inline images. */
export function isIdentifierOrDigest(
  value: string,
): 'uuid' | 'digest' | 'integrity' | 'data-uri' | 'password-hash' | null {
  if (PASSWORD_HASH.test(value)) return 'password-hash';
  if (UUID.test(value)) return 'uuid';
  if (HEX_DIGEST.test(value)) return 'digest';
  if (INTEGRITY.test(value)) return 'integrity';
  if (DATA_URI.test(value)) return 'data-uri';
  return null;
}
