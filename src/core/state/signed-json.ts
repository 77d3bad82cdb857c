import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * An HMAC-SHA256 under the user's state key (`state-key.ts`), stored in the JSON object itself as `mac`. It covers the
 * object without `mac`, serialized by `JSON.stringify` (so a re-indented file still verifies, an edited value does
 * not), and the file's kind, so that one signed file cannot stand in for another.
 */
export const MAC_FIELD = 'mac';
const DOMAIN = 'tollgate-state-mac-v1';

export type SignedKind =
  | 'state'
  | 'waivers'
  | 'stop-cache'
  | 'run-cache'
  | 'history'
  | 'commit-scans'
  | 'policy-accepted'
  | 'filtered-digests'
  | 'analyzer-probes'
  | 'stamp-evidence';

/** What a read object's signature says. `unsigned`: written by a tollgate from before signatures. */
export type Signature = 'valid' | 'unsigned' | 'forged';

function macOf(kind: SignedKind, body: unknown, key: Buffer): string {
  return createHmac('sha256', key).update(`${DOMAIN}\0${kind}\0`).update(JSON.stringify(body)).digest('hex');
}

function withoutMac(value: Record<string, unknown>): Record<string, unknown> {
  const { [MAC_FIELD]: _mac, ...body } = value;
  return body;
}

/** The object with its `mac`, last. */
export function signObject(kind: SignedKind, value: object, key: Buffer): Record<string, unknown> {
  const body = withoutMac(value as Record<string, unknown>);
  return { ...body, [MAC_FIELD]: macOf(kind, body, key) };
}

/** Checks a parsed JSON value's `mac`. Without a key nothing can be valid. */
export function checkSignature(kind: SignedKind, value: unknown, key: Buffer | null): Signature {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'forged';
  const mac = (value as Record<string, unknown>)[MAC_FIELD];
  if (mac === undefined) return 'unsigned';
  if (typeof mac !== 'string' || key === null) return 'forged';
  const expected = Buffer.from(macOf(kind, withoutMac(value as Record<string, unknown>), key), 'hex');
  const given = Buffer.from(mac, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected) ? 'valid' : 'forged';
}

/** `value` without its `mac`, for the schema that reads it. */
export function unsigned(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return withoutMac(value as Record<string, unknown>);
}
