import { shannonEntropy } from './entropy.js';
import { ValueMatcher } from './value-matcher.js';

/**
 * Secrets known by value rather than by shape, masked wherever they appear in output even with no keyword around
 * them: the values of the process's credential-named environment variables (a check that prints
 * `$AWS_SECRET_ACCESS_KEY` prints 40 bare base64 characters) and every secret the scanner found in this process.
 * This is the one extra masking set; `redactSecrets` applies it on every output path.
 */

/** Why a value is masked; also the rule id a channel that names the rule (`[REDACTED:…]`) shows. */
export type KnownKind = 'env-credential' | 'found-secret';

/** Shorter values are too likely to be ordinary words or numbers in output. */
const MIN_KNOWN_LENGTH = 8;

/** Provider variables whose names carry none of the credential words. */
const PROVIDER_VARIABLES = new Set([
  'AWS_ACCESS_KEY_ID',
  'AWS_SESSION_TOKEN',
  'AZURE_CLIENT_SECRET',
  'DATABASE_URL',
  'GH_ENTERPRISE_TOKEN',
  'GOOGLE_APPLICATION_CREDENTIALS_JSON',
  'NPM_AUTH',
  'NODE_AUTH_TOKEN',
  'OPENAI_API_KEY',
  'PGPASSWORD',
  'REDIS_URL',
  'SENTRY_DSN',
  'SLACK_WEBHOOK_URL',
  'TWINE_PASSWORD',
]);

/** `*SECRET*`, `*TOKEN*`, `*PASSWORD*`/`*PASSWD*`/`*_PASS`, `*_KEY`, `*APIKEY*`, `*CREDENTIAL*`, `*_AUTH` names. */
const CREDENTIAL_NAME = /SECRET|TOKEN|PASSW(?:OR)?D|_PASS$|(?:^|_)KEY$|APIKEY|API_KEY|CREDENTIAL|(?:^|_)AUTH$/i;

/** Values a credential-named variable often holds that are not secrets (switches, paths, placeholders). */
const NOT_SECRET = /^(?:true|false|yes|no|on|off|enabled?|disabled?|null|none|undefined|changeme|placeholder)$/i;

export function isCredentialName(name: string): boolean {
  return PROVIDER_VARIABLES.has(name.toUpperCase()) || CREDENTIAL_NAME.test(name);
}

/** The values of an environment's credential-named variables that could be secrets. */
export function credentialEnvValues(env: NodeJS.ProcessEnv): string[] {
  const values = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || !isCredentialName(name)) continue;
    const trimmed = value.trim();
    // A bare number would be masked in every line number, size and timestamp that happens to contain it.
    if (trimmed.length < MIN_KNOWN_LENGTH || NOT_SECRET.test(trimmed) || /^\d+$/.test(trimmed)) continue;
    // A path to a key file or a socket names where a secret is, not the secret.
    if (/^(?:[/~]|\.{1,2}\/|[A-Za-z]:\\)/.test(trimmed) && !/\s/.test(trimmed)) continue;
    values.add(trimmed);
  }
  return [...values];
}

const found = new Set<string>();
let envValues: string[] | undefined;
/** Every written form of every known value, and why each is known (the first reason wins). */
let known: { matcher: ValueMatcher; kinds: Map<string, KnownKind>; filed: number } | undefined;

/** Called with every raw secret the scanner reports, so output later in the run masks it wherever it shows up. */
export function rememberFoundSecret(secret: string): void {
  if (secret.length < MIN_KNOWN_LENGTH || found.has(secret)) return;
  found.add(secret);
}

/** Tests only: forget found secrets and re-read the environment. */
export function resetKnownValues(): void {
  found.clear();
  envValues = undefined;
  known = undefined;
}

function knownMatcher(): { matcher: ValueMatcher; kinds: Map<string, KnownKind> } {
  if (known === undefined) {
    // Read once: the environment of a run does not change, and reading process.env is slow on a hot path.
    envValues ??= credentialEnvValues(process.env);
    known = { matcher: new ValueMatcher(), kinds: new Map(), filed: 0 };
    for (const value of envValues) fileValue(known, value, 'env-credential');
  }
  // Found secrets are filed as they come (a Set iterates in insertion order): nothing is rebuilt.
  if (known.filed < found.size) {
    let index = 0;
    for (const value of found) if (index++ >= known.filed) fileValue(known, value, 'found-secret');
    known.filed = found.size;
  }
  return known;
}

function fileValue(into: { matcher: ValueMatcher; kinds: Map<string, KnownKind> }, value: string, kind: KnownKind) {
  for (const form of writtenForms(value)) {
    if (into.kinds.has(form)) continue;
    into.kinds.set(form, kind);
    into.matcher.add(form);
  }
}

/** Where known values occur in the text, and why each is known. */
export function knownValueSpans(text: string): Array<{ start: number; end: number; kind: KnownKind }> {
  const { matcher, kinds } = knownMatcher();
  return matcher
    .find(text)
    .map((match) => ({ start: match.start, end: match.end, kind: kinds.get(match.value) ?? 'found-secret' }));
}

/** Rules whose match is a key's public half: its private half is often printed right next to it, with no keyword. */
const KEY_ID_RULE = /(?:access-key-id|key-id|client-id|app-id)$/;
/** How far either side of a key id a companion secret may sit (same line, `id:secret` or `id secret`). */
const COMPANION_REACH = 120;
/** A run of token characters long enough, and random enough, to be a secret rather than a word or a path. */
const RUN = /[A-Za-z0-9/+_=-]{20,}/g;
const MIN_COMPANION_ENTROPY = 3.5;

/**
 * Spans of high-entropy runs next to a matched key id (`AKIA…  wJalr…` in a log line or a pasted CSV row), which the
 * rules miss because the secret half has no prefix and no keyword.
 */
export function companionSpans(
  text: string,
  matches: ReadonlyArray<{ start: number; end: number; rule: { id: string } }>,
): Array<{ start: number; end: number }> {
  const spans: Array<{ start: number; end: number }> = [];
  for (const match of matches) {
    if (!KEY_ID_RULE.test(match.rule.id)) continue;
    const lineStart = text.lastIndexOf('\n', match.start - 1) + 1;
    let lineEnd = text.indexOf('\n', match.end);
    if (lineEnd === -1) lineEnd = text.length;
    const from = Math.max(lineStart, match.start - COMPANION_REACH);
    const to = Math.min(lineEnd, match.end + COMPANION_REACH);
    const window = text.slice(from, to);
    RUN.lastIndex = 0;
    for (let run = RUN.exec(window); run !== null; run = RUN.exec(window)) {
      const start = from + run.index;
      const end = start + run[0].length;
      if (start < match.end && match.start < end) continue;
      if (!/\d/.test(run[0]) || !/[A-Za-z]/.test(run[0])) continue;
      if (shannonEntropy(run[0]) < MIN_COMPANION_ENTROPY) continue;
      spans.push({ start, end });
    }
  }
  return spans;
}

/** The value as written, inside a JSON string (where results and events are masked), and percent-encoded in a URL. */
function writtenForms(value: string): string[] {
  const forms = new Set([value, JSON.stringify(value).slice(1, -1)]);
  try {
    forms.add(encodeURIComponent(value));
  } catch {
    // A lone surrogate cannot be percent-encoded; then no URL holds it that way either.
  }
  return [...forms];
}
