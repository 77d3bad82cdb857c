import type { Severity } from '../core/finding.js';
import { GATES } from './generic-value.js';
import type { SecretRule } from './rule.js';

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
  match: string[];
  ignore?: string[];
}

/** A token that announces itself with a literal prefix (`dop_v1_`, `lin_api_`). The prefix is the keyword. */
export function prefixedToken(spec: PrefixedTokenSpec): SecretRule {
  const prefix = escapeRegExp(spec.prefix);
  return {
    id: spec.id,
    title: `${spec.title} (${spec.prefix}…)`,
    severity: spec.severity ?? 'high',
    keywords: [spec.prefix],
    pattern: new RegExp(`${TOKEN_START}(${prefix}${spec.body})(?![A-Za-z0-9_-])`),
    ...(spec.entropy === undefined ? { entropy: 3 } : { entropy: spec.entropy }),
    ...(spec.validate ? { validate: spec.validate } : {}),
    samples: {
      match: spec.match,
      ignore: [...(spec.ignore ?? []), `${spec.prefix}\${TOKEN}`, `${spec.prefix}xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx`],
    },
  };
}

export interface NamedValueSpec {
  id: string;
  title: string;
  /** Provider word that must be part of the name (`twilio`, `datadog`): the keyword. */
  provider: string;
  /** Regex source of the value. */
  body: string;
  severity?: Severity;
  entropy?: number;
  /** Sample name (`TWILIO_AUTH_TOKEN`). */
  key: string;
  match: string[];
  ignore?: string[];
}

/**
 * A value with no format of its own (32 hex characters) that is a secret because of the name it is assigned to:
 * the name must contain the provider word and a secret word (`key`, `token`, `secret`, `pass`, `auth`).
 */
export function namedValue(spec: NamedValueSpec): SecretRule {
  const provider = escapeRegExp(spec.provider);
  const name = `(?<![A-Za-z0-9_.-])(?<name>[A-Za-z0-9_.-]{0,30}?${provider}[A-Za-z0-9_.-]{0,30}?(?:key|token|secret|pass|auth)[A-Za-z0-9_.-]{0,20})`;
  return {
    id: spec.id,
    title: spec.title,
    severity: spec.severity ?? 'high',
    keywords: [spec.provider],
    gate: GATES.namedValue,
    pattern: new RegExp(
      `${name}(?:\\\\?["'])?[ \\t]{0,4}(?:=|:=|:|=>)[ \\t]{0,4}(?:\\\\?["'\`])?(?<secret>${spec.body})(?![A-Za-z0-9_-])`,
      'i',
    ),
    entropy: spec.entropy ?? 3,
    samples: { key: spec.key, match: spec.match, ignore: [...(spec.ignore ?? []), '${' + spec.key + '}'] },
  };
}
