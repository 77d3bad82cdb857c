import { shannonEntropy } from './entropy.js';
import { FIREBASE_SDK_TEST_KEYS, ONEPASSWORD_DOCS_EXAMPLE_KEYS } from './published-test-keys.js';

/**
 * Values that have the shape of a secret but are not one: placeholders, documentation examples, references to where
 * the real value lives (`${VAR}`, `process.env.X`), well-known public test keys. Applied to every rule's secret.
 */

/**
 * Words that mark a value as a stand-in (case-insensitive, anywhere in the value). `<name>` is a stand-in, but not any
 * `<…>`: generated salts (WordPress) hold `<`, `>` and `{` at random. ERB and PHP tags are templates.
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
  return value.length <= 100 && isLowVariety(value);
}

/** Past this length a value is key material (a key store's base64, a PEM body), not a token someone typed. */
const KEY_MATERIAL_LENGTH = 100;
/** Bits per character under which a long value is too plain to be random key material (base64 of a key is about 6). */
const KEY_MATERIAL_ENTROPY = 4.5;
const PLACEHOLDER_WORDS_ALL = new RegExp(PLACEHOLDER_WORDS.source, 'gi');
const LETTER_OR_DIGIT = /[A-Za-z0-9]/;
/** Random base64 spells a given six-letter word in one case about once in 10^10 characters. */
const WORD_LENGTH_BY_DESIGN = 6;

function writtenAsWord(word: string): boolean {
  if (word.length < WORD_LENGTH_BY_DESIGN) return false;
  const lower = word.toLowerCase();
  return word === lower || word === word.toUpperCase() || word === lower[0]!.toUpperCase() + lower.slice(1);
}

/**
 * Whether the value holds a stand-in's word. In long random key material a short word turns up by chance in some mix
 * of cases (a 1,400-character base64 store holds `todo` as `tODo` or the like about once in a thousand), so there a
 * word counts only where chance cannot spell it: standing apart (no letter or digit on either side), or written as
 * a word (one case, or capitalised) and at least `WORD_LENGTH_BY_DESIGN` long (AWS's example session token holds
 * `EXAMPLE` mid-token), or in a value too plain to be random. Marks such as `...` count anywhere.
 */
function holdsPlaceholderWord(value: string): boolean {
  if (value.length <= KEY_MATERIAL_LENGTH) return PLACEHOLDER_WORDS.test(value);
  PLACEHOLDER_WORDS_ALL.lastIndex = 0;
  let found = false;
  for (let match = PLACEHOLDER_WORDS_ALL.exec(value); match; match = PLACEHOLDER_WORDS_ALL.exec(value)) {
    const end = match.index + match[0].length;
    // Marks (`...`, `***`, `<name>`, `<%`) never turn up in base64 by chance: they count wherever they are.
    if (!LETTER_OR_DIGIT.test(match[0][0] ?? '')) return true;
    if (!LETTER_OR_DIGIT.test(value[match.index - 1] ?? '') && !LETTER_OR_DIGIT.test(value[end] ?? '')) return true;
    if (writtenAsWord(match[0])) return true;
    PLACEHOLDER_WORDS_ALL.lastIndex = match.index + 1;
    found = true;
  }
  return found && shannonEntropy(value) < KEY_MATERIAL_ENTROPY;
}

const DROPBOX_LONG_LIVED = /^[A-Za-z0-9]{11}AAAAAAAAAA[A-Za-z0-9_=-]{43}$/;

/**
 * `aaaaaaaa`, `12345678`, `abcdefgh`, `0000-0000`, `…9876543210`: a value with long runs or a sequence counting up or
 * down, which people type into stand-ins and a random generator practically never produces.
 */
function isLowVariety(value: string): boolean {
  if (/(.)\1{5,}/.test(value)) return true;
  let ascending = 1;
  let descending = 1;
  for (let i = 1; i < value.length; i++) {
    const step = value.charCodeAt(i) - value.charCodeAt(i - 1);
    ascending = step === 1 ? ascending + 1 : 1;
    descending = step === -1 ? descending + 1 : 1;
    if (ascending >= 6 || descending >= 6) return true;
  }
  return false;
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
