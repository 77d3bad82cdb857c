import { createHash } from 'node:crypto';

/**
 * JSON with every object's keys sorted and undefined dropped: the same config always gives the same text, however the
 * YAML was formatted, commented or ordered.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(record)
        .filter((key) => record[key] !== undefined)
        .sort()
        .map((key) => [key, sortKeys(record[key])]),
    );
  }
  return value;
}

/** sha256 (hex) of the effective config: stored results are only reused while this stays the same. */
export function configHashFor(config: unknown): string {
  return createHash('sha256').update(canonicalJson(config)).digest('hex');
}
