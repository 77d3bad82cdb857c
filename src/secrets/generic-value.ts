import { shannonEntropy } from './entropy.js';
import { isFormatString, isIdentifierShaped, MIME_TYPE } from './name-shaped-values.js';
import { isIdentifierOrDigest, isPlaceholder } from './placeholders.js';
import type { MatchContext } from './rule.js';
import { isUsablePassword } from './url-password.js';

/**
 * Judging a value found next to a secret-like name (`password = …`, `api_key: …`), where no provider format vouches
 * for it. This is where generic rules win or lose precision, so each check names the false positive it removes.
 */

export type GenericKind = 'password' | 'secret';

/** Names that contain a secret word but hold something else (`token_type`, `password_min_length`, `secretName`). */
const NAME_NOT_SECRET =
  /(?:type|name|field|label|length|len|min|max|policy|regex|pattern|prompt|placeholder|hint|url|uri|endpoint|path|file|dir|env|var|header|format|count|size|ttl|expiry|expires|expiration|expire|mode|enabled|enable|required|reset|confirm|confirmation|validation|strength|hash|hashed|digest|salt|id|ids|ref|policy|rotation|manager|mgr|provider|store|service|resolver|generator|encoder|input|changed|algorithm|limit|used|index|prefix|suffix|version|lifetime|timeout|location|source|template|class|kind|style|icon|visible|visibility|error|message|msg|title|text|description|desc|key_name|key_ref|keyref|secretref|selector|refresh_interval|display|status|method|auth_method|scope|scopes|audience|issuer|storage|backend|schema|test|spec|mock)s?$/i;
// A Rails form's `authenticity_token` is a CSRF token, `jsonwebtoken` a library, a `master-keying` no key.
const NAME_NOT_SECRET_ANYWHERE =
  /public|publishable|keyboard|bypass|compass|passport|passthrough|passive|passenger|passage|tokeniz|max_?tokens|tokens?_?(?:count|used|limit)|page_?token|next_?token|csrf|xsrf|authenticity_?token|jsonwebtoken|keying|_?pass(?:ed|es|ing)\b|surpass|encompass|pass_?through|secret_?key_?ref|pwd_?dir|cwd|old_?pwd|oldpwd|(?:input|output|page|next|start|starting|continuation|request|idempotency|sync|cancel|lifecycle_?action|pagination|resume|marker|cursor|client)_?token/i;

/**
 * Words of a name that say its value is not a working one: `fakeToken`, `invalid_api_key`, `wrongPassword`,
 * `nonMatchingToken` (whole words, so that `mockaroo_key` stays in).
 */
const NOT_REAL_WORDS = new Set(
  'fake dummy invalid bogus mock mocked wrong malformed incorrect nonmatching mismatched unmatched revoked example sample placeholder'.split(
    ' ',
  ),
);

function nameSaysNotReal(name: string): boolean {
  const words = name.split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/).map((word) => word.toLowerCase());
  return words.some((word, i) => NOT_REAL_WORDS.has(word) || (word === 'non' && words[i + 1] === 'matching'));
}

/**
 * Names of issued keys and tokens (`api_key`, `accessToken`): providers write those in base64, base64url, hex or JWT
 * alphabets, with `:` or `|` in id-and-secret pairs. Secrets and passwords, which people choose (Django and WordPress
 * keys, JWT secrets), may hold any symbol; so may WordPress' `AUTH_KEY`. `%` comes in URL escapes (`%2F`).
 */
const ISSUED_KEY_NAME = /token|api[_. -]?key|access[_. -]?key|app[_.-]?key|bearer/i;
const CHOSEN_SECRET_NAME = /secret|passw|pwd|private|signing|encryption|master|credential|auth[_. -]?key|salt/i;
const ISSUED_KEY_ALPHABET = /^(?:[A-Za-z0-9_\-.~+/=:|]|%[0-9A-Za-z])+$/;

/** Values that are types, booleans, empty markers or the name itself. */
const NOT_A_VALUE = new Set([
  'true',
  'false',
  'null',
  'nil',
  'none',
  'undefined',
  'yes',
  'no',
  'on',
  'off',
  'required',
  'optional',
  'string',
  'str',
  'int',
  'integer',
  'number',
  'boolean',
  'bool',
  'float',
  'text',
  'hidden',
  'password',
  'passwd',
  'secret',
  'token',
  'apikey',
  'api_key',
  'empty',
  'unset',
  'default',
  'string?',
  'object',
  'any',
  'bytes',
  'secretstr',
  'masked',
  'sensitive',
  'digest',
  'always',
  'never',
  'auto',
  'prompt',
  'ask',
  'random',
  'generate',
  'generated',
  'plain',
  'plaintext',
  'encrypted',
  'hashed',
  'wrong',
  'invalid',
  'disabled',
  'locked',
  'expired',
]);
const LONGEST_NOT_A_VALUE = Math.max(...[...NOT_A_VALUE].map((value) => value.length));

/** Well-known defaults and the passwords from every tutorial: a finding on these helps no one. */
const TRIVIAL_PASSWORDS = new Set([
  'password',
  'passw0rd',
  'admin',
  'administrator',
  'root',
  'postgres',
  'mysql',
  'secret',
  'changeme',
  'test',
  'testing',
  'guest',
  'default',
  'demo',
  'user',
  'username',
  'letmein',
  'qwerty',
  'welcome',
  'pass1234',
  'password1',
  'password123',
  'admin123',
  'root123',
  'toor',
  'mongo',
  'redis',
  'rabbitmq',
  'sa',
  'oracle',
  'example',
  'foobar',
  'foo',
  'bar',
  'baz',
  'foobared',
  'hunter2',
  'abc123',
  'abcd',
  'asdf',
  'qwer',
  'iloveyou',
  'pass',
  'passwd',
  'mypass',
  'mysecret',
  'sekret',
  'secure',
  'private',
  'hidden',
  'nopass',
  'nopassword',
  'blank',
  'master',
  'superuser',
  'dbpass',
  'dbuser',
  'testpass',
  'testuser',
  'none',
  // Vendors' documented defaults for their development images (SAP HANA express).
  'hxehana1',
]);

/**
 * Commands and shell words: `PGPASSWORD= psql …` and `--password= list` leave the value empty, and the next word is a
 * command, not a password.
 */
const COMMAND_WORDS = new Set(
  'psql mysql mysqldump pg_dump pg_restore redis-cli mongo mongosh sqlcmd list ping echo exec sudo env node bash sh zsh curl wget make docker kubectl helm npm npx yarn pnpm python python3 ruby java then else done do fi esac cat grep sed awk login logout status start stop run test info help'.split(
    ' ',
  ),
);

/** `admin123`, `Secret1!`, `Password2024`: a tutorial default with digits or a symbol added. */
function isTrivialPassword(value: string): boolean {
  const lower = value.toLowerCase();
  // `sample`, `dummy`, `fake`: the words that mark a name as a stand-in mark a value as one too.
  if (TRIVIAL_PASSWORDS.has(lower) || NOT_REAL_WORDS.has(lower)) return true;
  const stem = lower.replace(/[\d!@#$%^&*?._-]+$/, '');
  return stem !== lower && (stem.length === 0 || TRIVIAL_PASSWORDS.has(stem) || NOT_REAL_WORDS.has(stem));
}

/** `password`, `Passw0rd`, `pa33w0rd`, `P@ssword`: the word itself, spelled as people spell it in examples. */
const PASSWORD_WORD = /p[a@4][s$5z3]{1,2}w(?:[o0]r)?d/i;
/**
 * `config.db.password`, `this.token`, `Google::Auth::Credentials.new`, `getSecret()`, `args[0]`: a reference in code,
 * not a literal.
 */
const CODE_REFERENCE =
  /^(?:[A-Za-z_$][\w$]*(?:(?:\??\.|::)[A-Za-z_$][\w$]*)+|[A-Za-z_$][\w$.]*\(.*|[A-Za-z_$][\w$.]*\[.*)$/;
/** A path, a file name or a URL. */
const PATH_OR_URL =
  /^(?:\.{0,2}\/|~\/|[A-Za-z]:\\|[a-z][a-z0-9+.-]*:\/\/|arn:)|\.(?:pem|key|crt|cer|p12|pfx|json|txt|ya?ml|env|jks|keystore|der)$/i;
/** `src/db.ts`, `db.internal:5432/app`, `cache.internal`: a file or a host, not a credential. */
const RELATIVE_PATH_OR_HOST =
  /^(?:[\w.-]*\/[\w./-]*\.[A-Za-z0-9]{1,6}|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:internal|local|com|org|net|io|dev|cloud)(?::\d{1,5})?(?:\/\S*)?)$/;
/** `DB_PASSWORD` as a value names another variable. */
const CONSTANT_NAME = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;

export function judgeGenericValue(kind: GenericKind, raw: string, context: MatchContext): boolean {
  // Every check rejects, so their order changes no verdict: the cheap ones on the value come first, since keyword-dense
  // text (a JSON document of credential-named keys) brings a match per line and nearly all are rejected.
  // In program code an unquoted value is an expression (`password = input`), never the password itself.
  if (context.syntax === 'code' && context.group === 'secretBare') return false;
  const value = context.group === 'secretEntity' ? decodeEntities(raw) : raw;
  if (rejectedOnItsOwn(value)) return false;
  const name = context.name ?? '';
  const lower = value.toLowerCase();
  if (lower === name.toLowerCase()) return false;
  if (name && (NAME_NOT_SECRET.test(name) || NAME_NOT_SECRET_ANYWHERE.test(name) || nameSaysNotReal(name)))
    return false;
  if (kind === 'secret' && isOffIssuedAlphabet(value, name)) return false;
  if (/\.{2,}$/.test(value) || isHandMade(value)) return false; // `ops_eyJzaWdu..`: cut short in docs and logs
  if (CODE_REFERENCE.test(value) || PATH_OR_URL.test(value) || CONSTANT_NAME.test(value)) return false;
  if (RELATIVE_PATH_OR_HOST.test(value)) return false;
  if (isPlaceholder(value)) return false;
  const shape = isIdentifierOrDigest(value);
  if (shape === 'integrity' || shape === 'data-uri' || shape === 'password-hash') return false;
  const decoded = decodedBase64Text(value);
  if (decoded !== null && (isPlaceholder(decoded) || isTrivialPassword(decoded))) return false;
  // A value that names what it is (`term-token-3f9a…`, `SomeKindOfPassword1`, `mysecret="03#pa33w0rd"`) is an
  // example, not a credential.
  if (PASSWORD_WORD.test(value) || (kind === 'secret' && /token|secret/i.test(value))) return false;
  // `'password = '.$p['pw']` (PHP concatenation), `\$_POST["pw"]` (an escaped variable): code, not a literal.
  if (/^(?:[.+][ \t]*\$|\\\$[A-Za-z_{(])/.test(value)) return false;
  // Request and idempotency tokens are UUIDs; a UUID is a credential only under a name that says so.
  if (shape === 'uuid' && !/api[_.-]?(?:key|token)|secret|passw|auth/i.test(name)) return false;
  return kind === 'password' ? looksLikePassword(value, context) : looksLikeSecret(value);
}

/**
 * A key or token name whose value holds a character no issued key is written with (`?`, `^`, `$`, `[`). A bare value
 * in a URL's query runs on past `&` into the next parameter: the key ends there.
 */
function isOffIssuedAlphabet(value: string, name: string): boolean {
  if (!ISSUED_KEY_NAME.test(name) || CHOSEN_SECRET_NAME.test(name)) return false;
  const key = value.split('&', 1)[0]!;
  return key.length > 0 && !ISSUED_KEY_ALPHABET.test(key);
}

/**
 * Hex with one letter past `f` (`5488620aa9073q09…`): a digest or hex key edited by hand into a stand-in. A random
 * alphanumeric value of this length is all hex but one character with odds far below one in a million.
 */
function isHandMade(value: string): boolean {
  return value.length >= 20 && (/^[0-9a-f]*[g-z][0-9a-f]*$/.test(value) || /^[0-9A-F]*[G-Z][0-9A-F]*$/.test(value));
}

/**
 * The checks of `judgeGenericValue` that read the value alone and reject it under any name, in any syntax, for either
 * kind. The assignment gate runs them on a quoted value right after a keyword hit (`NameGateShape.quoted`): in
 * keyword-dense data (`"password_hint": "Enter your password"` on every line) no regex then runs for such a hit.
 */
export function rejectedOnItsOwn(value: string): boolean {
  // Four characters at least for a password (`looksLikePassword`), eight for a secret (`looksLikeSecret`).
  if (value.length < 4) return true;
  // Whitespace, translations, format strings and prose: credentials are printable ASCII.
  // `{0}` looked for only where a `{` is: each regular expression's run costs more than the engine's search.
  if (/[^\x21-\x7e]/.test(value) || (value.includes('{') && /\{\d+\}/.test(value))) return true;
  if (/^[-*&!@#|>[{(%=:?]/.test(value)) return true; // YAML anchors, tags, block scalars; markdown; flow maps
  // A type with GraphQL's non-null mark or an optional mark (`isPasswordAuthenticationVerifiable: Boolean!`).
  // Only a value as short as the longest of them is looked up: no lower-case copy of every value.
  const last = value.charCodeAt(value.length - 1);
  const bare = last === 33 || last === 63 ? value.slice(0, -1) : value;
  if (bare.length <= LONGEST_NOT_A_VALUE && NOT_A_VALUE.has(bare.toLowerCase())) return true;
  return isIdentifierShaped(value) || isFormatString(value) || MIME_TYPE.test(value);
}

/**
 * What `judgeGenericValue('secret', …)` turns down in a value whatever its name, syntax and group (a quoted group's
 * text, taken as it is): the secret assignment gate stops a hit whose quoted value is such (`"NextToken"`, `"Marker"`).
 */
export function secretValueRejected(value: string): boolean {
  return rejectedOnItsOwn(value) || PASSWORD_WORD.test(value) || /token|secret/i.test(value) || !looksLikeSecret(value);
}

function looksLikePassword(value: string, context: MatchContext): boolean {
  // A short lowercase word is a password only where it cannot be an expression (quoted, or a config file) and does
  // not name one (`sshpass`, `becomepass`, `username`).
  if (/^[a-z]{4,11}$/.test(value)) {
    const quoted = context.group !== 'secretBare' && context.group !== 'secretFlag';
    if (!quoted && context.syntax === 'code') return false;
    if (/pass|pwd|user|name|word|key|login/.test(value)) return false;
  }
  // People do use short lowercase passwords (`kestrel`, `mq4u`); next to a password name, four characters count.
  if (value.length < 4 || value.length > 128) return false;
  if (/^(?:[a-z]+|[A-Z][a-z]+)(?:[A-Z][a-z]+)+$/.test(value)) return false; // `overEvery`: an identifier
  if (/^[a-z]+(?:[-_][a-z]+)+$/i.test(value)) return false; // `admin-password`, `Read-Host`: names, not passwords
  if (isTrivialPassword(value) || COMMAND_WORDS.has(value)) return false;
  if (/^\d+$/.test(value)) return false; // a port, a count, a PIN-length number: not worth a block
  if (/^0x[0-9a-f]+$/i.test(value)) return false; // a hex number literal (`pass_mask = 0x31c45018`): a constant
  if (/^[A-Z][a-z]+$/.test(value) || /^[A-Z]+$/.test(value)) return false; // `Hidden`, `NONE`: words and constants
  return !/^(.)\1+$/.test(value);
}

function looksLikeSecret(value: string): boolean {
  if (value.length < 8 || value.length > 512) return false;
  if (!/[0-9]/.test(value) && !(/[a-z]/.test(value) && /[A-Z]/.test(value))) return false;
  if (/^[a-z]+(?:[-_][a-z]+)+$/i.test(value)) return false; // kebab or snake words: a name, not a key
  if (/^(?:[a-z]+|[A-Z][a-z]+)(?:[A-Z][a-z]+)+$/.test(value)) return false; // `nextPageToken`, `PaginationToken`
  if (/^v?\d+(?:\.\d+){1,3}$/.test(value)) return false; // a version
  if (/^[A-Z0-9]+(?:-[A-Z0-9]+){2,}$/.test(value) && /[A-Z]{3}/.test(value)) return false; // `AWS4-HMAC-SHA256`: an algorithm
  return shannonEntropy(value) >= 3;
}

/** `&amp;` → `&` and the other XML entities, for a value quoted with `&quot;`. */
function decodeEntities(text: string): string {
  return text.replace(/&(?:amp|lt|gt|quot|apos|#(\d{1,5}));/g, (entity, code: string | undefined) => {
    if (code !== undefined) return String.fromCharCode(Number(code));
    return { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&apos;': "'" }[entity] ?? entity;
  });
}

/** The text inside a base64 value (k8s Secret `data:`), when it decodes to printable ASCII. */
function decodedBase64Text(value: string): string | null {
  if (value.length < 8 || value.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return null;
  const text = Buffer.from(value, 'base64').toString('latin1');
  return /^[\x20-\x7e]+$/.test(text) ? text : null;
}

/**
 * Secret-like names for assignments; the name may have more around it (`DB_PASSWORD`, `stripeApiKey`). Key names may
 * be written as words in prose and docs (`API key:`, `Secret Key:`, `Authentication key:`).
 */
// Misspellings and abbreviations count (`pswd`, `psswrd`, `pasword`, `passworsd`, `pass_word`, `PW`); a bare `pw` or
// `pass` must end the name's word so that `pwm`, `passenger` and `compass` stay out.
export const PASSWORD_NAME = '(?:pa?s{1,2}w(?:o?r)?s?d|pass_word|passphrase|pwd|pw(?![a-z])|pass(?![a-z]))';
export const SECRET_NAME =
  '(?:secret|token|api[_. -]?key|apikey|access[_. -]?key|secret key|auth(?:entication)?[_. -]?key|private[_.-]?key|signing[_.-]?key|encryption[_.-]?key|master[_.-]?key|app[_.-]?key|credentials?|client[_.-]?secret|authorization)';

/** A name (with optional quotes, possibly escaped in JSON-in-JSON), a separator, then a quoted or bare value. */
export function assignmentPattern(nameCore: string, options: { comparisons?: boolean } = {}): RegExp {
  return assignmentOf(`(?<![A-Za-z0-9_.-])(?<name>[A-Za-z0-9_.-]{0,80}?${nameCore}[A-Za-z0-9_.-]{0,40})`, 'i', options);
}

/**
 * `assignmentPattern` with a whole name pattern of its own (a `name` group), and its own flags: a name told apart by
 * its case (`stripeKey`, not `monkey`) needs a pattern without `i`.
 */
export function assignmentOf(name: string, flags: string, options: { comparisons?: boolean } = {}): RegExp {
  // `define('DB_PASSWORD', '…')` (PHP) and `Map.of("token", "…")`: a quoted name, a comma, a quoted value, as the
  // arguments of a call that sets or reads a named value (not a list such as `['password', 'seen']`); any call with
  // `env` in its name counts (`getenv`, `GetEnvOrDefault("api_token", "…")`, `env_or`), its second argument a default.
  // A type annotation may sit between name and `=` (`password: str = `, `val pw: String = `, Rust's
  // `API_KEY: &str = ` and `&'static str`), and a C array's brackets (`char pw[] = `, `char key[33] = `). Comparisons
  // (`if pw == "…"`) only where asked: code compares tokens with token kinds (`token === "Punctuator"`).
  const compare = options.comparisons ? '===?|!==?|' : '';
  const separator = `(?:(?:\\\\?["'])?[ \\t]{0,8}(?:${compare}=>|:=|\\?=|=|:[ \\t]{0,4}(?:&(?:'[a-z]{1,10}[ \\t]{1,4})?)?[A-Za-z_][\\w.]{0,30}\\??[ \\t]{0,4}=|\\[[0-9]{0,4}\\][ \\t]{0,4}=|:)[ \\t]{0,8}|(?<=(?:define|\\.of|put|set|setdefault|setProperty|setItem|[a-z]{0,12}env[a-z]{0,16}|get|fetch)\\([ \\t]{0,4}["'][A-Za-z0-9_.-]{1,130})["'][ \\t]{0,4},[ \\t]{0,16}(?=["']))`;
  const value =
    '(?:\\\\"(?<secretEscaped>[^"\\\\\\r\\n]{1,200})\\\\"|"(?<secretQuoted>[^"\\r\\n]{1,200})"|' +
    "'(?<secretSingle>[^'\\r\\n]{1,200})'|`(?<secretBacktick>[^`$\\r\\n]{1,200})`|" +
    // HTML and XML attribute text writes quotes as `&quot;` (web pages, draw.io diagrams, exported settings).
    '&quot;(?<secretEntity>[^\\s"\'<>]{1,200}?)&quot;|' +
    '(?<secretBare>[^\\s"\'`,;<>(){}\\[\\]]{1,200})(?![^\\s"\'`,;<>(){}\\[\\]]))';
  return new RegExp(name + separator + value, flags);
}

/**
 * A password that a statement's syntax marks as one (`IDENTIFIED BY '…'`, `CURLOPT_PASSWORD, "…"`): judged like a
 * password in a config file, quoted or not, since keywords and prose follow the same syntax (`PASSWORD EXPIRE`,
 * "a node identified by nodeId").
 */
export function judgeStatementPassword(value: string, context: MatchContext): boolean {
  return isUsablePassword(value) && judgeGenericValue('password', value, { ...context, syntax: 'config' });
}
