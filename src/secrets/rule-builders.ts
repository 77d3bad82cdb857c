import type { Severity } from '../core/finding.js';
import { alphanumericRun, checkedGate } from './gate-checks.js';
import { GATES } from './generic-gates.js';
import { hitContext } from './hit-context.js';
import { LazyRule } from './lazy-rule.js';
import type { SecretRule } from './rule.js';
import { lazySamples, randomString } from './sample-tokens.js';

/** Shapes most provider rules share, so that a provider file reads as a list of formats. */

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/**
 * Where a prefixed token may start: not inside a longer word, except right after a terminal colour code
 * (`ESC[94m` in a coloured log line), whose final `m` is not part of the token.
 */
export const TOKEN_START = '(?:(?<![A-Za-z0-9_-])|(?<=\\x1b\\[[0-9;]{0,12}m))';

export interface PrefixedTokenSpec {
  id: string;
  /** Without the prefix: `GitLab personal access token` becomes `GitLab personal access token (glpat-…)`. */
  title: string;
  prefix: string;
  /** Regex source of what follows the prefix. */
  body: string;
  severity?: Severity;
  entropy?: number;
  validate?: SecretRule['validate'];
  /** The samples, made when first read (see `lazySamples`). */
  match: () => string[];
  ignore?: () => string[];
}

/** A body of letters and digits only, so many of them (`[A-Za-z0-9]{42}`): its count. */
const ALPHANUMERIC_BODY = /^\[A-Za-z0-9\]\{(\d+)\}$/;

/**
 * What must follow a prefix: its body, and no token character after it. A body of letters and digits only is read in
 * code first and given as the hit's context, so the keyword pass drops the prefix's hits that it does not follow
 * (`ion_` in `union_all`, `dapi_` in identifiers) before any is handled.
 */
function prefixGate(body: string): RegExp {
  const gate = new RegExp(`(?:${body})(?![A-Za-z0-9_-])`);
  const count = ALPHANUMERIC_BODY.exec(body)?.[1];
  if (count === undefined) return gate;
  const length = Number(count);
  return checkedGate(
    gate,
    (text, after) => alphanumericRun(text, after, length),
    hitContext([], Array(length).fill('A-Za-z0-9')),
  );
}

/** A token that announces itself with a literal prefix (`dop_v1_`, `lin_api_`). The prefix is the keyword. */
export function prefixedToken(spec: PrefixedTokenSpec): SecretRule {
  const prefix = escapeRegExp(spec.prefix);
  return {
    id: spec.id,
    title: `${spec.title} (${spec.prefix}…)`,
    severity: spec.severity ?? 'high',
    keywords: [spec.prefix],
    // The keyword is the prefix, so what must follow a hit is the body: no window for `client_secret_id` (`secret_`).
    gate: prefixGate(spec.body),
    pattern: new RegExp(`${TOKEN_START}(${prefix}${spec.body})(?![A-Za-z0-9_-])`),
    ...(spec.entropy === undefined ? { entropy: 3 } : { entropy: spec.entropy }),
    ...(spec.validate ? { validate: spec.validate } : {}),
    samples: lazySamples(() => ({
      match: spec.match(),
      ignore: [
        ...(spec.ignore?.() ?? []),
        `${spec.prefix}\${TOKEN}`,
        `${spec.prefix}xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx`,
      ],
    })),
  };
}

export interface NamedValueSpec {
  id: string;
  title: string;
  /** Provider word that must be part of the name (`twilio`, `datadog`): the keyword; or several (`jira`, `confluence`). */
  provider: string | readonly string[];
  /** Regex source of the value. */
  body: string;
  severity?: Severity;
  entropy?: number;
  /** Sample name (`TWILIO_AUTH_TOKEN`). */
  key: string;
  /** The samples, made when first read (see `lazySamples`). */
  match: () => string[];
  ignore?: () => string[];
}

/**
 * A value with no format of its own (32 hex characters) that is a secret because of the name it is assigned to:
 * the name must contain the provider word and a secret word (`key`, `token`, `secret`, `pass`, `auth`).
 */
export function namedValue(spec: NamedValueSpec): SecretRule {
  const words = typeof spec.provider === 'string' ? [spec.provider] : spec.provider;
  const provider = words.length === 1 ? escapeRegExp(words[0]!) : `(?:${words.map(escapeRegExp).join('|')})`;
  const name = `(?<![A-Za-z0-9_.-])(?<name>[A-Za-z0-9_.-]{0,30}?${provider}[A-Za-z0-9_.-]{0,30}?(?:key|token|secret|pass|auth)[A-Za-z0-9_.-]{0,20})`;
  return {
    id: spec.id,
    title: spec.title,
    severity: spec.severity ?? 'high',
    keywords: words,
    gate: GATES.namedValue,
    pattern: new RegExp(
      `${name}(?:\\\\?["'])?[ \\t]{0,4}(?:=|:=|:|=>)[ \\t]{0,4}(?:\\\\?["'\`])?(?<secret>${spec.body})(?![A-Za-z0-9_-])`,
      'i',
    ),
    entropy: spec.entropy ?? 3,
    samples: lazySamples(() => ({
      key: spec.key,
      match: spec.match(),
      ignore: [...(spec.ignore?.() ?? []), '${' + spec.key + '}'],
    })),
  };
}

/** What a prefix-less key looks like: its alphabet (matched case-insensitively) and length range. */
export interface ValueShape {
  /** `hex`: 0-9a-f; `alnum`: letters and digits; either plus the `symbols` listed. */
  readonly charset: 'hex' | 'alnum';
  readonly symbols?: string;
  readonly min: number;
  readonly max: number;
}

export interface ProviderNamedSpec {
  /** The provider file key and id stem: `abyssale` gives the rule `abyssale-named-key`. */
  readonly slug: string;
  readonly provider: string;
  /** Lower-case words that name the provider in a variable name (`abyssale`); each is a keyword. */
  readonly aliases: readonly string[];
  readonly shape: ValueShape;
}

/** The regex class of a shape (the rule's `i` flag covers upper case). */
export function shapeClass(shape: ValueShape): string {
  const base = shape.charset === 'hex' ? '0-9a-f' : '0-9a-z';
  return `[${base}${escapeRegExp(shape.symbols ?? '')}]`;
}

/** A value that is not in a provider's format: up to the next quote, space or delimiter. */
const OFF_FORMAT_VALUE = '[^\\s"\'`,;<>(){}\\[\\]\\\\&]{4,200}';

/**
 * A value one or two characters off the shape (a character too many or too few, one outside the alphabet, hex in
 * mixed case): a truncated or hand-edited stand-in for this provider's key, which no generic rule should report either. A value far
 * off the shape is likely another credential of the provider's (a client secret beside an API key): generic rules judge it.
 */
export function missesByLittle(value: string, shape: ValueShape): boolean {
  const inAlphabet = new RegExp(`^${shapeClass(shape)}$`, 'i');
  let off = Math.max(0, shape.min - value.length, value.length - shape.max);
  for (const char of value) if (!inAlphabet.test(char)) off++;
  if (off === 0) return shape.charset === 'hex' && /[a-f]/.test(value) && /[A-F]/.test(value);
  return off <= 2;
}

/** Names of another credential than the API key a provider's shape describes: a client secret, a password. */
export const OTHER_CREDENTIAL_NAME = /secret|pass|private/i;

/** The words after the provider's in a provider-named assignment's name: the rules' `nameWords`. */
const SECRET_NAME_WORDS = ['key', 'token', 'secret', 'pass', 'auth'] as const;

/** The name group of a provider-named assignment: a provider alias at the start of the name or after a separator. */
function providerName(aliases: readonly string[]): string {
  return (
    '(?<![A-Za-z0-9_.-])(?<name>(?:[A-Za-z0-9_.-]{0,30}?[_.-])?' +
    `(?<alias>${aliases.map(escapeRegExp).join('|')})[A-Za-z0-9_.-]{0,30}?(?:${SECRET_NAME_WORDS.join('|')})[A-Za-z0-9_.-]{0,20})`
  );
}

/**
 * Whether one of the aliases is a word of the name of its own: `toggl_api_key`, `TOGGL_TOKEN`, `togglApiKey`, not
 * `toggle_key` or `TOGGLE_KEY` (an alias that starts a longer word). Judged on the name's own case, which the
 * pattern ignores: after a lower-case alias no lower-case letter may follow, after an upper-case one no upper-case,
 * unless the alias is long and a secret word follows (`openweatherapikey`; `toggleapikey` stays out, `toggl` is short).
 */
const SECRET_WORD_START = /^(?:api|key|token|secret|access|auth|pass)/;

export function aliasIsWord(name: string, aliases: readonly string[]): boolean {
  const lower = name.toLowerCase();
  return aliases.some((alias) => {
    for (let at = lower.indexOf(alias); at !== -1; at = lower.indexOf(alias, at + 1)) {
      if (at > 0 && !/[_.-]/.test(name[at - 1]!)) continue;
      const next = name[at + alias.length] ?? '';
      const last = name[at + alias.length - 1]!;
      const after = last === last.toUpperCase() && last !== last.toLowerCase() ? /[A-Z]/ : /[a-z]/;
      if (!after.test(next)) return true;
      // All one case (`openweatherapikey`, `MAILGUNAPIKEY`): a long alias is a word when a secret word follows it.
      if (alias.length >= 5 && SECRET_WORD_START.test(lower.slice(at + alias.length))) return true;
    }
    return false;
  });
}

/**
 * The provider-named assignment: a value with no prefix of its own (`DOPPLER_TOKEN=…`, `abyssale_api_key: …`) that
 * is reported under its provider because the name holds one of the provider's words, at the start of the name or
 * after a separator, and a secret word. One rule per provider, built from a table row: the aliases are the keywords,
 * looked up in the name before each secret word (`nameWords`), so that 400 provider names add nothing to the
 * prefilter's per-character work.
 */
export function providerNamedAssignment(spec: ProviderNamedSpec): SecretRule {
  // The format, or else any other value (`secretOff`): one that misses the format by a character (wrong length or
  // alphabet) is no key of this provider's, and the rule then keeps the generic rules off it too (`claimsRejected`).
  const value = `(?<secret>${shapeClass(spec.shape)}{${spec.shape.min},${spec.shape.max}})(?![A-Za-z0-9_-])|(?<secretOff>${OFF_FORMAT_VALUE})`;
  return {
    id: `${spec.slug}-named-key`,
    title: `${spec.provider} API key or token (named)`,
    provider: spec.provider,
    severity: 'high',
    keywords: spec.aliases,
    nameWords: SECRET_NAME_WORDS,
    gate: GATES.namedValue,
    pattern: new RegExp(
      `${providerName(spec.aliases)}(?:\\\\?["'])?[ \\t]{0,4}(?:=|:=|:|=>)[ \\t]{0,4}(?:\\\\?["'\`])?(?:${value})`,
      'i',
    ),
    entropy: 3,
    validate: (secret, context) =>
      context.group === 'secret' &&
      /[0-9]/.test(secret) &&
      /[a-z]/i.test(secret) &&
      // Hex keys come in one case; `acdeFf05…` is a hand-edited stand-in.
      !(spec.shape.charset === 'hex' && /[a-f]/.test(secret) && /[A-F]/.test(secret)) &&
      aliasIsWord(context.name ?? '', spec.aliases),
    // A `…_SECRET` or `…_PASSWORD` beside the provider's name is another credential than the key this shape describes.
    claimsRejected: (secret, context) =>
      missesByLittle(secret, spec.shape) &&
      !OTHER_CREDENTIAL_NAME.test(context.name ?? '') &&
      aliasIsWord(context.name ?? '', spec.aliases),
    // Made when first read (the rule tests, the docs): four hundred of these rules are built at every start.
    samples: lazySamples(() => {
      const key = `${spec.aliases[0]!.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_API_KEY`;
      const alphabet = spec.shape.charset === 'hex' ? '0123456789abcdef' : 'abcdefghijklmnopqrstuvwxyz0123456789';
      const sample = randomString(spec.shape.max, alphabet, spec.slug);
      return {
        key,
        match: [sample],
        // One character longer than the format: no key of this provider's, and no generic finding either.
        ignore: [`\${${key}}`, 'your-api-key-here', 'x'.repeat(spec.shape.max), '1234567890'.repeat(4), `${sample}7`],
      };
    }),
  };
}

/**
 * `providerNamedAssignment(spec())`, made at the rule's first keyword hit (see `LazyRule`): its outline is known from
 * the row's aliases alone, the same `keywords` array `spec` must give.
 */
export function lazyProviderNamedAssignment(aliases: readonly string[], spec: () => ProviderNamedSpec): LazyRule {
  return new LazyRule({ keywords: aliases, nameWords: SECRET_NAME_WORDS, gate: GATES.namedValue }, () =>
    providerNamedAssignment(spec()),
  );
}
