/**
 * Binary key stores: PKCS#12 (`.p12`, `.pfx`, Java's default store type since 9) and Java's own JKS and JCEKS. They
 * have no text to match, so a file that is one is handed to the rules as its base64 (see `keyStoreText`), the form
 * such stores take when they are pasted into settings (`KEYSTORE_BASE64=…`, a CI variable). The rules then decide
 * from the decoded bytes whether the store holds a private or secret key: a trust store of certificates is public.
 */

export type KeyStoreKind = 'pkcs12' | 'jks' | 'jceks';

const JKS_MAGIC = 0xfeedfeed;
const JCEKS_MAGIC = 0xcececece;

/** DER of the OID 1.2.840.113549.1.12.10.1, the PKCS#12 bag types; the next byte says which bag. */
const PKCS12_BAG_OID = Buffer.from([0x06, 0x0b, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x0c, 0x0a, 0x01]);
/** keyBag: a private key in the clear. */
const KEY_BAG = 1;
/** pkcs8ShroudedKeyBag and secretBag: keys sealed with the password (certBag, crlBag, safeContentsBag hold none). */
const SEALED_KEY_BAGS = new Set([2, 5]);
/** DER of the OID 1.2.840.113549.1.7.1 (pkcs7-data), the authenticated safe's content type. */
const PKCS7_DATA_OID = Buffer.from([0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x01]);

/** Bytes of a store passed to the rules; past it a PKCS#12 key bag or a JKS entry is no longer looked for. */
export const KEY_STORE_MAX_BYTES = 65_536;

/** Which key store the bytes begin as, by structure alone (not by the file's name), or null. */
export function keyStoreKind(bytes: Uint8Array): KeyStoreKind | null {
  if (bytes.length < 16) return null;
  // Each store's first byte (JKS 0xfe, JCEKS 0xce, a PKCS#12 SEQUENCE 0x30) before any view or read: a history hands
  // every commit message over as bytes, and the reads below cost more than the rest of a message's checks.
  const first = bytes[0];
  if (first !== 0xfe && first !== 0xce && first !== 0x30) return null;
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = view.readUInt32BE(0);
  const version = view.readUInt32BE(4);
  if ((magic === JKS_MAGIC || magic === JCEKS_MAGIC) && (version === 1 || version === 2))
    return magic === JKS_MAGIC ? 'jks' : 'jceks';
  // PFX ::= SEQUENCE { version INTEGER (3), authSafe ContentInfo (SEQUENCE { OID pkcs7-data … }), … }
  const header = derHeader(view, 0);
  if (!header || view[0] !== 0x30) return null;
  const at = header.contentStart;
  if (view[at] !== 0x02 || view[at + 1] !== 0x01 || view[at + 2] !== 0x03 || view[at + 3] !== 0x30) return null;
  const authSafe = derHeader(view, at + 3);
  if (!authSafe) return null;
  return view.subarray(authSafe.contentStart, authSafe.contentStart + PKCS7_DATA_OID.length).equals(PKCS7_DATA_OID)
    ? 'pkcs12'
    : null;
}

/**
 * The key the store holds: `plain` when a PKCS#12 key bag holds it in the clear (`openssl pkcs12 -nodes`-style stores),
 * `sealed` when it is encrypted with the store's password (PKCS#12 shrouded keys and secret bags; a JKS or JCEKS
 * key entry always is), or null for no key at all (a trust store of certificates).
 */
export function keyStoreKey(bytes: Uint8Array): 'plain' | 'sealed' | null {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const kind = keyStoreKind(view);
  if (kind === 'pkcs12') {
    // Keys sit in bags of the plain authenticated safe (certificates are what the tools encrypt), so a key bag's OID
    // is in the clear.
    let sealed = false;
    for (let at = view.indexOf(PKCS12_BAG_OID); at !== -1; at = view.indexOf(PKCS12_BAG_OID, at + 1)) {
      const bag = view[at + PKCS12_BAG_OID.length] ?? 0;
      if (bag === KEY_BAG) return 'plain';
      if (SEALED_KEY_BAGS.has(bag)) sealed = true;
    }
    return sealed ? 'sealed' : null;
  }
  return kind !== null && javaStoreHoldsKey(view) ? 'sealed' : null;
}

/**
 * The store as one line of base64 for the rules to match, when `bytes` is one (else null). Only its first
 * `KEY_STORE_MAX_BYTES`: enough for any store's first key entry.
 */
export function keyStoreText(bytes: Uint8Array): string | null {
  if (keyStoreKind(bytes) === null) return null;
  const head = bytes.subarray(0, KEY_STORE_MAX_BYTES);
  return Buffer.from(head.buffer, head.byteOffset, head.byteLength).toString('base64');
}

/**
 * JKS and JCEKS: magic, version, entry count, then per entry a tag (1: private key, 2: trusted certificate, 3: secret
 * key, JCEKS only), an alias and a date, and the entry's data. Entries are walked until one holds a key; a store cut
 * short by `KEY_STORE_MAX_BYTES` ends the walk.
 */
function javaStoreHoldsKey(view: Buffer): boolean {
  const version = view.readUInt32BE(4);
  const count = view.readUInt32BE(8);
  let at = 12;
  const fits = (length: number) => at + length <= view.length;
  const skipUtf = () => {
    if (!fits(2)) return false;
    at += 2 + view.readUInt16BE(at);
    return at <= view.length;
  };
  const skipCertificate = () => {
    if (version === 2 && !skipUtf()) return false;
    if (!fits(4)) return false;
    at += 4 + view.readUInt32BE(at);
    return at <= view.length;
  };
  for (let entry = 0; entry < count && fits(4); entry++) {
    const tag = view.readUInt32BE(at);
    if (tag === 1 || tag === 3) return true;
    if (tag !== 2) return false;
    at += 4;
    if (!skipUtf() || !fits(8)) return false;
    at += 8;
    if (!skipCertificate()) return false;
  }
  return false;
}

/** A DER tag and length at `at`: where its content starts; null for a length form this does not read. */
function derHeader(view: Buffer, at: number): { contentStart: number } | null {
  if (at + 2 > view.length) return null;
  const first = view[at + 1]!;
  if (first < 0x80) return { contentStart: at + 2 };
  const octets = first & 0x7f;
  if (octets < 1 || octets > 3 || at + 2 + octets > view.length) return null;
  return { contentStart: at + 2 + octets };
}
