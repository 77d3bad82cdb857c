import { isPlainObject } from './schema-walk.js';

/**
 * Keys whose values are likely credentials (`checks[].env.NPM_TOKEN`, a future `github.token`). Their values never
 * appear in `config show` or in a config error; everything else is shown as written.
 */
const SENSITIVE_KEY = /token|secret|passw(?:or)?d|api[-_]?key|auth|credential|private[-_]?key|cookie|session/i;

export const REDACTED = '<redacted>';

export function isSensitiveKey(key: string | number): boolean {
  return typeof key === 'string' && SENSITIVE_KEY.test(key);
}

/** `value` with every scalar under a sensitive key replaced by `<redacted>`; `key` is the name `value` sits under. */
export function redactSensitive(value: unknown, key?: string | number): unknown {
  if (key !== undefined && isSensitiveKey(key) && (typeof value === 'string' || typeof value === 'number')) {
    return REDACTED;
  }
  if (Array.isArray(value)) return value.map((item) => redactSensitive(item));
  if (isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, redactSensitive(item, name)]));
  }
  return value;
}
