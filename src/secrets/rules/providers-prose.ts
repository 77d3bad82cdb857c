import { checkedGate, isAlphanumeric, isBlank, isQuote } from '../gate-checks.js';
import { byteAt, withBytesTest } from '../hit-bytes.js';
import { hitContext } from '../hit-context.js';
import { nameGate } from '../name-gate.js';
import { defineRules, type MatchContext } from '../rule.js';
import { missesByLittle, OTHER_CREDENTIAL_NAME, shapeClass, type ValueShape } from '../rule-builders.js';
import { LOWER_ALPHANUMERIC, lazySamples, randomString } from '../sample-tokens.js';
import { NAMED_PROVIDER_ROWS, type NamedProviderShape, namedProviderShapes } from './named-providers.js';
import { MORE_NAMED_ROWS } from './providers-named-more.js';
import { SAAS_NAMED_ROWS } from './providers-named-saas.js';

/**
 * A provider's key named in words rather than in a variable name: a log line (`Using adzuna key=…`), notes
 * (`webex token - '…'`), a settings list (`aylien key: …`). The provider word comes one to three words before `key`
 * or `token`; the value must be in that provider's format (the provider-named table's shapes), and a value one or two
 * characters off it is a stand-in that no generic rule reports either.
 */

const PROSE_KEY = new RegExp(
  '(?<![A-Za-z0-9_])(?<name>[A-Za-z][A-Za-z0-9]{2,30}(?:[ \\t]+[A-Za-z][A-Za-z0-9]{1,30}){0,2}?[ \\t]+(?:key|token))' +
    // `token - '…'` (a list of notes) only with a quoted value: `token - offset` is arithmetic.
    `["']?[ \\t]*(?:=|:|-(?=[ \\t]*['"]))[ \\t]*(?:['"][ \\t]?)?(?<secret>[^\\s"'\`,;<>(){}\\[\\]\\\\&]{4,1200})`,
  'i',
);

let shapesByAlias: ReadonlyMap<string, NamedProviderShape> | undefined;

/**
 * Every table of provider-named keys, by alias: made when a rule here first checks a match, not as the rules load
 * (every scan and every worker thread loads them).
 */
function shapes(): ReadonlyMap<string, NamedProviderShape> {
  shapesByAlias ??= new Map([
    ...namedProviderShapes(NAMED_PROVIDER_ROWS),
    ...namedProviderShapes(MORE_NAMED_ROWS),
    ...namedProviderShapes(SAAS_NAMED_ROWS),
  ]);
  return shapesByAlias;
}

/** Credential words run on after a provider's name (`trelloapikey`, `zendeskapi`). */
const RUN_ON_CREDENTIAL = /(?:api|access|secret|private|auth|oauth|key|token)+$/;

/**
 * The shape of the first word of the name that is a provider alias (`adzuna` in `Using adzuna key`), or such an alias
 * with credential words run on (`trelloapikey token = …`).
 */
function shapeOf(context: MatchContext): ValueShape | undefined {
  const words = (context.name ?? '').toLowerCase().split(/[ \t]+/);
  for (const word of words.slice(0, -1)) {
    const entry = shapes().get(word) ?? shapes().get(word.replace(RUN_ON_CREDENTIAL, ''));
    if (entry) return entry.shape;
  }
  return undefined;
}

function fits(secret: string, shape: ValueShape): boolean {
  if (!new RegExp(`^${shapeClass(shape)}{${shape.min},${shape.max}}$`, 'i').test(secret)) return false;
  if (shape.charset === 'hex' && /[a-f]/.test(secret) && /[A-F]/.test(secret)) return false;
  return /[0-9]/.test(secret) && /[a-z]/i.test(secret) && !oneLetterInOtherCase(secret);
}

/**
 * One letter in the other case among many (`grevetn5owRs1ybh…`): a hand-edited stand-in for a one-case key, since a
 * random mixed-case key of 20 or more letters almost never has only one upper- or lower-case letter.
 */
function oneLetterInOtherCase(secret: string): boolean {
  const upper = secret.replace(/[^A-Z]/g, '').length;
  const lower = secret.replace(/[^a-z]/g, '').length;
  return Math.min(upper, lower) === 1 && upper + lower >= 12;
}

/**
 * A provider's key after its name and a space, with no `=` or `:` (`clockify secret <key>`, `appsynergy_token <key>`,
 * `dailyKEY <key>`): notes, command lines, tool settings. Tight, since prose has words after words: the provider word
 * (at most two words into the name), then only credential words (`api`, `secret`, `access`, `key`, `token`…), then
 * a value in the provider's own shape, to the end of the value.
 */
const SPACED_KEY = new RegExp(
  '(?<![A-Za-z0-9_.-])(?<name>[A-Za-z][A-Za-z0-9]{1,40}(?:[ \\t_.-]{1,2}[A-Za-z][A-Za-z0-9]{0,30}){0,4}?[ \\t_.-]{0,2}(?:key|token|secret|access)s?)' +
    `["']?[ \\t]{1,4}["']?(?<secret>[A-Za-z0-9][^\\s"'\`,;<>(){}\\[\\]\\\\&]{19,199})(?![^\\s"'\`,;])`,
  'i',
);

const CREDENTIAL_WORD = /^(?:api|access|secret|private|auth|personal|app|bearer|oauth|key|token)+s?$/;

/** `codacyACCESS_KEY`, `clarifai access key` → `codacy`, `access`, `key` (words in lower case). */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[ \t_.-]+/)
    .filter((word) => word !== '');
}

/**
 * The provider shape named by `name`: a provider word among its first three words (or such a word with credential
 * words run on, `appsynergytoken`), followed by credential words only.
 */
function spacedShapeOf(name: string): ValueShape | undefined {
  const words = wordsOf(name);
  for (let at = 0; at < Math.min(3, words.length); at++) {
    const word = words[at]!;
    const entry = shapes().get(word) ?? shapes().get(word.replace(RUN_ON_CREDENTIAL, ''));
    if (entry === undefined) continue;
    const rest = words.slice(at + 1);
    const runOn = !shapes().has(word);
    if ((runOn || rest.length > 0) && rest.every((rest) => CREDENTIAL_WORD.test(rest))) return entry.shape;
    return undefined;
  }
  return undefined;
}

/**
 * A client's log naming the provider on one line and logging the key on the next (`Sending request to the airship
 * API` / `[DEBUG] Using Key=…`): the key line names no provider, so the line before must, in `request to [the] X`
 * form, and the value must be in X's own shape. Only `key` or `token` right after `using`: `Using ID=…` is no secret.
 */
const LOGGED_KEY = new RegExp(
  '(?<name>request[ \\t]+to[ \\t]+(?:the[ \\t]+)?[A-Za-z][A-Za-z0-9]{1,40}(?:\\.[a-z]{2,6})?)(?:[ \\t]+api)?[ \\t]*\\r?\\n' +
    '[ \\t]*(?:\\[[A-Za-z]{3,8}\\][ \\t]*)?using[ \\t]+(?:api[ \\t_]?)?(?:key|token)[ \\t]*=[ \\t]*' +
    `(?<secret>[A-Za-z0-9][^\\s"'\`,;<>(){}\\[\\]\\\\&]{3,1200})(?![^\\s"'\`,;])`,
  'i',
);

/** Per ASCII code: 1 for a letter, digit or dot (a word of `LOGGED_KEY`'s first line), 2 for a blank. */
const LOGGED_LINE = new Uint8Array(128);
for (const char of `${LOWER_ALPHANUMERIC}ABCDEFGHIJKLMNOPQRSTUVWXYZ.`) LOGGED_LINE[char.charCodeAt(0)] = 1;
LOGGED_LINE[32] = 2;
LOGGED_LINE[9] = 2;
/** The most letters, digits and dots `LOGGED_KEY`'s first line holds after `request to` (`the`, 41 + 7, `api`). */
const LOGGED_LINE_CHARS = 3 + 41 + 7 + 3;
/** How far the check reads before it leaves the line to the regex (blanks there are unbounded). */
const LOGGED_LINE_READ = 256;

/**
 * The logged key's gate in code: after `request to`, the rest of the line is what `LOGGED_KEY`'s first line allows,
 * at most three words of letters, digits and dots (`the`, the provider, `api`) between blanks and then the line's
 * end (`\n` or `\r\n`). Comments and messages (`a request to the server and …`, `request to ${url}`) have more, and
 * cut no 1,400-character window. Reads only ahead, within the line; any code unit outside ASCII turns the hit down
 * (no word of the pattern holds one).
 */
function loggedLineEnds(text: string, after: number): boolean {
  let words = 0;
  let chars = 0;
  let inWord = false;
  for (let at = after; at < text.length; at++) {
    if (at - after > LOGGED_LINE_READ) return true;
    const code = text.charCodeAt(at);
    if (code === 10) return words > 0;
    if (code === 13) return words > 0 && at + 1 < text.length && text.charCodeAt(at + 1) === 10;
    const kind = code < 128 ? LOGGED_LINE[code]! : 0;
    if (kind === 0) return false;
    if (kind === 2) {
      inWord = false;
      continue;
    }
    if (!inWord && ++words > 3) return false;
    inWord = true;
    if (++chars > LOGGED_LINE_CHARS) return false;
  }
  return false;
}

/** The shape of the provider the log line sends a request to (`request to the aha.io` → `aha`). */
function loggedShapeOf(name: string): ValueShape | undefined {
  const provider = name
    .toLowerCase()
    .split(/[ \t]+/)
    .at(-1)!
    .replace(/\.[a-z]+$/, '');
  return shapes().get(provider)?.shape;
}

const loggedSample = randomString(32, LOWER_ALPHANUMERIC, 'prose-logged-apiflash');

/**
 * A key in the query of a URL on the provider's own host (`https://api.bulbul.com/v1/users?key=…`): the domain names
 * the provider, and the value must be in its shape. Only `key`, `api_key`, `apikey`, `access_key` or `token`.
 */
/** The lengths of `key` and `token`. */
const PROSE_KEYWORD_LENGTHS = [3, 5];

/**
 * Whether `key` or `token` (whichever ended at `after`) has blanks before it and a word's letter or digit before those,
 * as `PROSE_KEY` needs: `{ token: … }` and an indented `key: …` (object literals in code) are not prose.
 */
function wordThenSpaceBefore(text: string, after: number): boolean {
  for (const length of PROSE_KEYWORD_LENGTHS) {
    let at = after - length - 1;
    if (at < 0 || !isBlank(text.charCodeAt(at))) continue;
    while (at > 0 && isBlank(text.charCodeAt(at))) at--;
    if (isAlphanumeric(text.charCodeAt(at))) return true;
  }
  return false;
}

/** `wordThenSpaceBefore` and `separatorAfter` on bytes (`HitBytesTest`): the byte scan drops a `key` hit without them. */
function proseNameBytes(bytes: Uint8Array, after: number): boolean {
  let sep = after;
  if (isQuote(byteAt(bytes, sep))) sep++;
  while (isBlank(byteAt(bytes, sep))) sep++;
  const code = byteAt(bytes, sep);
  if (code !== 61 && code !== 58 && code !== 45) return false;
  for (const length of PROSE_KEYWORD_LENGTHS) {
    let at = after - length - 1;
    if (at < 0 || !isBlank(byteAt(bytes, at))) continue;
    while (at > 0 && isBlank(byteAt(bytes, at))) at--;
    if (isAlphanumeric(byteAt(bytes, at))) return true;
  }
  return false;
}

/** Per ASCII code, 1 where the spaced key's value may not go on (`[^\s"'\`,;<>(){}[\]\\&]`). */
const SPACED_VALUE_STOP = new Uint8Array(128);
for (const char of ' \t\n\r\v\f"\'`,;<>(){}[]\\&') SPACED_VALUE_STOP[char.charCodeAt(0)] = 1;

/**
 * The spaced key's gate in code, for its keywords' hits in ordinary code (`key`, `token`, `secret` and `access` stand
 * mostly before a letter, `_`, a quote, `:` or `(`): past one optional `s` and one optional quote, 1 to 4 blanks, an
 * optional quote, a letter or digit and 19 more characters of a value.
 */
function spacedValueAfter(text: string, after: number): boolean {
  let at = after;
  if (text.charCodeAt(at) === 115) at++; // s
  if (isQuote(text.charCodeAt(at))) at++;
  let blanks = 0;
  while (blanks < 5 && isBlank(text.charCodeAt(at + blanks))) blanks++;
  if (blanks === 0 || blanks > 4) return false;
  at += blanks;
  if (isQuote(text.charCodeAt(at))) at++;
  const first = text.charCodeAt(at);
  if (!((first >= 48 && first <= 57) || (first >= 65 && first <= 90) || (first >= 97 && first <= 122))) return false;
  for (let next = at + 1; next <= at + 19; next++) {
    const code = text.charCodeAt(next);
    if (Number.isNaN(code) || (code < 128 && SPACED_VALUE_STOP[code] === 1)) return false;
  }
  return true;
}

/** `spacedValueAfter` on bytes (`HitBytesTest`; a byte past ASCII, as a unit past ASCII, is no stop). */
function spacedValueBytes(bytes: Uint8Array, after: number): boolean {
  let at = after;
  if (byteAt(bytes, at) === 115) at++; // s
  if (isQuote(byteAt(bytes, at))) at++;
  let blanks = 0;
  while (blanks < 5 && isBlank(byteAt(bytes, at + blanks))) blanks++;
  if (blanks === 0 || blanks > 4) return false;
  at += blanks;
  if (isQuote(byteAt(bytes, at))) at++;
  if (!isAlphanumeric(byteAt(bytes, at))) return false;
  for (let next = at + 1; next <= at + 19; next++) {
    const code = byteAt(bytes, next);
    if (code === -1 || (code < 128 && SPACED_VALUE_STOP[code] === 1)) return false;
  }
  return true;
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

const URL_KEY =
  /https?:\/\/(?:[a-z0-9-]{1,40}\.){0,3}?(?<name>[a-z0-9]{2,40})\.[a-z]{2,6}(?::[0-9]{2,5})?\/[^\s"'`?#]{0,200}\?(?:[^\s"'`#]{0,200}?&)?(?:api_?key|key|access_key|token)=(?<secret>[A-Za-z0-9][A-Za-z0-9._~+/=-]{3,400})(?![A-Za-z0-9._~+/=-])/i;

const urlSample = randomString(32, LOWER_ALPHANUMERIC, 'prose-url-bulbul');

const spacedSample = randomString(40, LOWER_ALPHANUMERIC, 'prose-spaced-beebole');

const sample = randomString(40, LOWER_ALPHANUMERIC, 'prose-abyssale');

export default defineRules([
  {
    id: 'providers-prose-named-key',
    title: "API key or token named by its provider in words (Using adzuna key=…, webex token - '…')",
    severity: 'high',
    keywords: ['key', 'token'],
    // The keyword ends the name, or a `-` after it does (`token - '…'`): then a quote, a blank, `=` or `:`.
    gate: withBytesTest(
      checkedGate(
        nameGate({ run: 1, at: 'end', chars: `"' \t=:` }, '', '', /["']?[ \t]*(?:=|:|-[ \t]*['"])/.source),
        (text, after) => wordThenSpaceBefore(text, after) && separatorAfter(text, after),
      ),
      proseNameBytes,
    ),
    pattern: PROSE_KEY,
    entropy: 3,
    validate: (secret, context) => {
      const shape = shapeOf(context);
      return shape !== undefined && fits(secret, shape);
    },
    claimsRejected: (secret, context) => {
      const shape = shapeOf(context);
      return shape !== undefined && missesByLittle(secret, shape) && !OTHER_CREDENTIAL_NAME.test(context.name ?? '');
    },
    samples: lazySamples(() => ({
      key: 'abyssale key',
      match: [sample],
      // One character too many: no Abyssale key, and no bare-key finding either.
      ignore: [`${sample}7`, 'your-abyssale-key', `\${ABYSSALE_KEY}`],
      contexts: [
        {
          name: 'log line',
          path: 'logs/client.log',
          render: (v) => `[INFO] calling the API\n[DEBUG] Using abyssale Key=${v}\n`,
        },
        { name: 'notes', path: 'notes/accounts.txt', render: (v) => `abyssale token - '${v}'\n` },
        { name: 'YAML list', path: 'config/providers.yaml', render: (v) => `keys:\n  abyssale api key: ${v}\n` },
      ],
    })),
  },
  {
    id: 'providers-prose-spaced-key',
    title: 'API key or token after its provider and a space (clockify secret …, appsynergy_token …)',
    severity: 'high',
    keywords: ['key', 'token', 'secret', 'access'],
    // The keyword ends the name (`…_token`, `…KEY`), and every table's shapes are 20 characters or more. Its context
    // (what `spacedValueAfter` needs first: an `s`, a quote or a blank) lets the keyword pass drop the hits of
    // `access`, this rule's alone, that stand before anything else (half of them on npm code: `accessToken`, `access(`).
    // As a name gate: past the keyword and one optional `s`, a quote or a blank.
    gate: withBytesTest(
      checkedGate(
        nameGate(
          { run: 1, at: 'end', chars: `"' \t` },
          '',
          '',
          /s?["']?[ \t]{1,4}["']?[A-Za-z0-9][^\s"'`,;<>(){}[\]\\&]{19}/.source,
        ),
        spacedValueAfter,
        hitContext([], [`s"' \t`]),
      ),
      spacedValueBytes,
    ),
    pattern: SPACED_KEY,
    entropy: 3,
    validate: (secret, context) => {
      const shape = spacedShapeOf(context.name ?? '');
      return shape !== undefined && fits(secret, shape);
    },
    claimsRejected: (secret, context) => {
      const shape = spacedShapeOf(context.name ?? '');
      return shape !== undefined && missesByLittle(secret, shape) && !OTHER_CREDENTIAL_NAME.test(context.name ?? '');
    },
    samples: lazySamples(() => ({
      key: 'beebole token',
      match: [spacedSample],
      // One character short of a Beebole key; a word where the key would be.
      ignore: [spacedSample.slice(1), 'beebole-token-goes-here', 'placeholder1'],
      contexts: [
        { name: 'notes', path: 'notes/accounts.txt', render: (v) => `beebole secret key ${v}\n` },
        { name: 'run-on name', path: 'notes/setup.md', render: (v) => `Set BEEBOLE_API_TOKEN ${v} in the vault.\n` },
        { name: 'glued name', path: 'scripts/keys.txt', render: (v) => `bbl: beeboleKEY "${v}"\n` },
        { name: 'access', path: 'notes/vault.txt', render: (v) => `BEEBOLE_ACCESS ${v}\n` },
      ],
    })),
  },
  {
    id: 'providers-prose-logged-key',
    title: 'API key or token logged on the line after a request to its provider (Sending request to X / Using Key=…)',
    severity: 'high',
    keywords: ['request to'],
    // A blank after `request to` (its context: `request to(` and `request to"` are dropped by the keyword pass).
    gate: checkedGate(/[ \t]/, loggedLineEnds, hitContext([], [' \t'])),
    window: 'block',
    maxLength: 1400,
    pattern: LOGGED_KEY,
    entropy: 3,
    validate: (secret, context) => {
      const shape = loggedShapeOf(context.name ?? '');
      return shape !== undefined && fits(secret, shape);
    },
    claimsRejected: (secret, context) => {
      const shape = loggedShapeOf(context.name ?? '');
      return shape !== undefined && missesByLittle(secret, shape);
    },
    samples: lazySamples(() => ({
      match: [loggedSample],
      // One character too many; a word where the key would be.
      ignore: [`${loggedSample}7`, 'your-apiflash-key-here1'],
      contexts: [
        {
          name: 'log',
          path: 'logs/client.log',
          render: (v) =>
            `[INFO] Sending request to the apiflash API\n[DEBUG] Using Key=${v}\n[INFO] Response received\n`,
        },
        {
          name: 'debug output',
          path: 'notes/debug.txt',
          render: (v) => `sending API request to apiflash\nusing api key = ${v}\n`,
        },
      ],
    })),
  },
  {
    id: 'providers-prose-url-key',
    title: "API key in a URL's query on its provider's host (https://api.bulbul.com/…?key=…)",
    severity: 'high',
    keywords: ['key=', 'token='],
    pattern: URL_KEY,
    entropy: 3,
    validate: (secret, context) => {
      const shape = shapes().get((context.name ?? '').toLowerCase())?.shape;
      return shape !== undefined && fits(secret, shape);
    },
    claimsRejected: (secret, context) => {
      const shape = shapes().get((context.name ?? '').toLowerCase())?.shape;
      return shape !== undefined && missesByLittle(secret, shape);
    },
    samples: lazySamples(() => ({
      match: [urlSample],
      // One character too many; a template.
      ignore: [`${urlSample}7`, '{{BULBUL_KEY}}'],
      contexts: [
        { name: 'Go', path: 'cmd/client.go', render: (v) => `url := "https://api.bulbul.com/v1/users?key=${v}"\n` },
        {
          name: 'notes',
          path: 'notes/api.md',
          render: (v) => `GET https://bulbul.com/api/v2/voices?lang=en&api_key=${v}\n`,
        },
      ],
    })),
  },
]);
