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

/** macOf's bytes for the object that `body` followed by `closing` spells, from those characters themselves. */
function macOfText(kind: SignedKind, body: string, closing: string, key: Buffer): Buffer {
  return createHmac('sha256', key).update(`${DOMAIN}\0${kind}\0`).update(body).update(closing).digest();
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

/** How a file written without indentation ends: the `mac`, last, then the object's brace (and the file's newline). */
const MAC_TAIL = /^,"mac":"([0-9a-f]{64})"\}\n?$/;

/**
 * `checkSignature` of `value`, parsed from `text`, without serializing `value` again when `text` is as
 * `writeSignedJsonFile` writes it without indentation (the fast paths read their files so). The MAC covers
 * `JSON.stringify` of the object without `mac`: for such a text, the characters before `,"mac":` and the closing
 * brace. A MAC over those characters holds only for characters signed with the key, and signed characters are always
 * `JSON.stringify`'s of an object, which parse back to that object: so `value` is the object signed. Any other text
 * (re-indented, edited, written by hand) is checked as `checkSignature` checks it.
 */
export function checkSignatureOfText(kind: SignedKind, text: string, value: unknown, key: Buffer | null): Signature {
  const at = text.lastIndexOf(',"mac":"');
  const mac = at > 0 ? MAC_TAIL.exec(text.slice(at))?.[1] : undefined;
  const object = typeof value === 'object' && value !== null && !Array.isArray(value);
  if (key !== null && mac !== undefined && object && (value as Record<string, unknown>)[MAC_FIELD] === mac) {
    const expected = macOfText(kind, text.slice(0, at), '}', key);
    if (timingSafeEqual(Buffer.from(mac, 'hex'), expected)) return 'valid';
  }
  return checkSignature(kind, value, key);
}

/** `value` without its `mac`, for the schema that reads it. */
export function unsigned(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return withoutMac(value as Record<string, unknown>);
}
