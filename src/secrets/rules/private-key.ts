import { KEY_STORE_MAX_BYTES, keyStoreKey } from '../key-stores.js';
import { defineRules, type SecretRule } from '../rule.js';
import { ALPHANUMERIC, BASE64, base64Of, fakePem, lazySamples, randomString } from '../sample-tokens.js';

/** Key material must be there: a header with `...` or a few characters between the lines is documentation. */
function hasKeyBody(block: string): boolean {
  // Escaped line ends become real ones first, so header lines (`Proc-Type: …`) are dropped one by one.
  const body = block
    .replace(/-----(?:BEGIN|END)[^-]{0,60}-----/g, '')
    .replace(/\\[nr]/g, '\n')
    .replace(/^[A-Za-z-]+:.*$/gm, '')
    .replace(/[^A-Za-z0-9+/=]/g, '');
  return body.length >= 64;
}

/**
 * A passphrase protects the key: PEM's `Proc-Type: 4,ENCRYPTED` header, or an OpenSSH key whose cipher (the first
 * string after `openssh-key-v1\0` in its body) is not `none`. Such a key is still a leak, but not a usable one.
 */
export function isPassphraseProtected(block: string): boolean {
  if (/Proc-Type:\s*4,ENCRYPTED/.test(block)) return true;
  if (!block.includes('OPENSSH PRIVATE KEY')) return false;
  const body = block
    .replace(/-----(?:BEGIN|END)[^-]{0,60}-----/g, '')
    .replace(/\\[nr]/g, '')
    .replace(/[^A-Za-z0-9+/=]/g, '');
  const bytes = Buffer.from(body.slice(0, 200), 'base64');
  const magic = 'openssh-key-v1\0';
  if (bytes.toString('latin1', 0, magic.length) !== magic || bytes.length < magic.length + 4) return false;
  const length = bytes.readUInt32BE(magic.length);
  const cipher = bytes.toString('latin1', magic.length + 4, magic.length + 4 + Math.min(length, 40));
  return cipher !== 'none';
}

/** A PEM block; with `protectedKey`, only its passphrase-protected form (reported lower), else only the plain one. */
function pem(
  label: string,
  id: string,
  title: string,
  severity: SecretRule['severity'] = 'critical',
  protectedKey = false,
): SecretRule {
  const escaped = label.replace(/ /g, ' ');
  // Hand-assembled keys (string concatenation in code, pasted docs) sometimes close with another type's line
  // (`BEGIN PRIVATE KEY` … `END RSA PRIVATE KEY`): still one key.
  const end = label.endsWith('PRIVATE KEY') ? '(?:[A-Z0-9]{1,12} ){0,3}PRIVATE KEY' : escaped;
  return {
    id,
    title,
    severity,
    keywords: [`BEGIN ${label}`],
    // The body may be split by real newlines or by `\n` escapes (JSON, notebooks); it never holds five dashes.
    pattern: new RegExp(`(-----BEGIN ${escaped}-----(?:[^-]|-(?!----)){64,16000}?-----END ${end}-----)`),
    window: 'block',
    maxLength: 17000,
    ...(protectedKey ? { passphraseProtected: true } : {}),
    validate: (block) => hasKeyBody(block) && isPassphraseProtected(block) === protectedKey,
    samples: lazySamples(() => {
      const plain = fakePem(label);
      const encrypted = encryptedSample(label);
      return {
        match: [
          protectedKey ? encrypted : plain,
          ...(protectedKey || !label.endsWith('PRIVATE KEY') ? [] : [mismatchedEnd(plain, label)]),
        ],
        ignore: [
          `-----BEGIN ${label}-----\\n...\\n-----END ${label}-----`,
          `-----BEGIN ${label}-----\n<your key here>\n-----END ${label}-----`,
        ],
      };
    }),
  };
}

/** The key closed with another type's END line, as hand-assembled keys in code sometimes are. */
function mismatchedEnd(block: string, label: string): string {
  const other = label === 'RSA PRIVATE KEY' ? 'PRIVATE KEY' : 'RSA PRIVATE KEY';
  return block.replace(`-----END ${label}-----`, `-----END ${other}-----`);
}

/** The passphrase-protected form of a key type, as `ssh-keygen -N` or `openssl … -aes256` writes it. */
function encryptedSample(label: string): string {
  if (label === 'OPENSSH PRIVATE KEY') {
    const header = Buffer.concat([
      Buffer.from('openssh-key-v1\0', 'latin1'),
      Buffer.from([0, 0, 0, 10]),
      Buffer.from('aes256-ctr', 'latin1'),
    ]);
    const lines = fakePem(label, 'openssh-encrypted').split('\n');
    const first = `${header.toString('base64')}${lines[1]!}`.slice(0, 64);
    return [lines[0], first, ...lines.slice(2)].join('\n');
  }
  const lines = fakePem(label, 'pem-encrypted').split('\n');
  return [
    lines[0],
    'Proc-Type: 4,ENCRYPTED',
    'DEK-Info: AES-256-CBC,0F1E2D3C4B5A69788796A5B4C3D2E1F0',
    '',
    ...lines.slice(1),
  ].join('\n');
}

/**
 * What differs between a key container's plain rule and its passphrase-protected one: the id, the title, and the
 * severity (a protected key is reported lower, or not at all with `secrets.encryptedKeys: ignore`).
 */
function protection(
  protectedKey: boolean,
  plain: { id: string; title: string },
  protectedTitle: string,
): Pick<SecretRule, 'id' | 'title' | 'severity' | 'passphraseProtected'> {
  return protectedKey
    ? { id: `${plain.id}-passphrase`, title: protectedTitle, severity: 'medium', passphraseProtected: true }
    : { ...plain, severity: 'critical' };
}

/** PuTTY keys state their protection in the clear: `Encryption: none`, or the cipher. */
function puttyRule(protectedKey: boolean): SecretRule {
  const key = (encryption: string) =>
    `PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: ${encryption}\nComment: deploy\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAIHf2\nq8Vd\nPrivate-Lines: 1\n${fakePem('X').split('\n')[1]}`;
  return {
    ...protection(
      protectedKey,
      { id: 'private-key-putty', title: 'PuTTY private key (PuTTY-User-Key-File-…)' },
      'Passphrase-protected PuTTY private key (PuTTY-User-Key-File-… with Encryption)',
    ),
    keywords: ['PuTTY-User-Key-File-'],
    pattern:
      /(PuTTY-User-Key-File-\d: [^\r\n]{1,40}\r?\n(?:[^\r\n]{0,200}\r?\n){1,40}?Private-Lines: \d{1,3}\r?\n[A-Za-z0-9+/=\r\n]{64,8000})/,
    window: 'block',
    maxLength: 12000,
    validate: (block) => /^Encryption: (?!none\b)/m.test(block) === protectedKey,
    samples: lazySamples(() => ({
      match: [key(protectedKey ? 'aes256-cbc' : 'none')],
      ignore: ['PuTTY-User-Key-File-3: ssh-ed25519'],
      contexts: [{ name: 'ppk file', path: 'deploy.ppk', render: (value) => `${value}\n` }],
    })),
  };
}

/** kubeconfig `client-key-data`, k8s Secret `data:` and Helm values hold PEM keys in base64. */
function base64Rule(protectedKey: boolean): SecretRule {
  return {
    ...protection(
      protectedKey,
      { id: 'private-key-base64', title: 'Base64-wrapped private key (LS0tLS1CRUdJTi…)' },
      'Base64-wrapped passphrase-protected private key (LS0tLS1CRUdJTi…)',
    ),
    keywords: ['LS0tLS1CRUdJTi'],
    pattern: /(LS0tLS1CRUdJTi[A-Za-z0-9+/]{100,24000}={0,2})/,
    window: 'block',
    maxLength: 25000,
    validate: (secret) => {
      const text = Buffer.from(secret, 'base64').toString('latin1');
      if (!/-----BEGIN [A-Z ]{0,20}PRIVATE KEY/.test(text) || !hasKeyBody(text)) return false;
      return (isPassphraseProtected(text) || text.includes('BEGIN ENCRYPTED PRIVATE KEY')) === protectedKey;
    },
    samples: lazySamples(() => ({
      match: [base64Of(protectedKey ? encryptedSample('RSA PRIVATE KEY') : fakePem('RSA PRIVATE KEY'))],
      // (The other form of the key is the other rule's match; load-rules.test.ts checks that each reports only its own.)
      ignore: [base64Of(fakePem('CERTIFICATE')), base64Of(fakePem('PUBLIC KEY'))],
    })),
  };
}

/** PEM labels the rules above name one by one; any other `… PRIVATE KEY` label is the catch-all's. */
const NAMED_LABELS = '(?:RSA|EC|DSA|OPENSSH|ENCRYPTED) PRIVATE KEY-----';

/**
 * Private keys under PEM labels of their own: `ED25519 PRIVATE KEY`, `X25519 PRIVATE KEY`, `ANY PRIVATE KEY`,
 * `SSH2 ENCRYPTED PRIVATE KEY` converted to five dashes, and `RSA KEY` (bare RSA keys some libraries write). A
 * header `Proc-Type: 4,ENCRYPTED` or `ENCRYPTED` in the label makes the passphrase-protected form.
 */
function otherPemRule(protectedKey: boolean): SecretRule {
  const block = (label: string, seed: string) => fakePem(label, seed);
  return {
    ...protection(
      protectedKey,
      { id: 'private-key-other', title: 'Private key under another PEM label (-----BEGIN … PRIVATE KEY-----)' },
      'Passphrase-protected private key under another PEM label (-----BEGIN … PRIVATE KEY-----)',
    ),
    keywords: ['-----BEGIN '],
    // A certificate, a public key or a named label is passed over before a window is cut.
    gate: new RegExp(`(?!${NAMED_LABELS})(?:(?:[A-Z0-9][A-Z0-9.]{1,11} ){1,3}PRIVATE KEY|RSA KEY)-----`),
    pattern: new RegExp(
      `(-----BEGIN (?!${NAMED_LABELS})(?:(?:[A-Z0-9][A-Z0-9.]{1,11} ){1,3}PRIVATE KEY|RSA KEY)-----(?:[^-]|-(?!----)){64,16000}?-----END [A-Z0-9. ]{3,40}KEY-----)`,
    ),
    window: 'block',
    maxLength: 17000,
    validate: (found) =>
      hasKeyBody(found) &&
      (isPassphraseProtected(found) || /^-----BEGIN [A-Z0-9. ]{0,40}ENCRYPTED/.test(found)) === protectedKey,
    samples: lazySamples(() => ({
      match: protectedKey
        ? [block('SSH2 ENCRYPTED PRIVATE KEY', 'pem-other-ssh2')]
        : [
            block('ED25519 PRIVATE KEY', 'pem-other-ed'),
            block('RSA KEY', 'pem-other-rsa'),
            block('ANY PRIVATE KEY', 'pem-other-any'),
          ],
      ignore: [
        block('CERTIFICATE', 'pem-other-cert'),
        block('RSA PUBLIC KEY', 'pem-other-pub'),
        '-----BEGIN ED25519 PRIVATE KEY-----\n...\n-----END ED25519 PRIVATE KEY-----',
      ],
    })),
  };
}

/** An ssh.com (Tectia) private key's cipher: the second string of its body, after the `0x3f6ff9eb` magic. */
export function ssh2Cipher(block: string): string | null {
  const body = block
    .split(/\r?\n|\\n/)
    .filter((line) => !line.startsWith('----') && !/^[A-Za-z-]+:/.test(line.trim()) && !line.trim().startsWith('"'))
    .join('')
    .replace(/[^A-Za-z0-9+/=]/g, '');
  const bytes = Buffer.from(body.slice(0, 400), 'base64');
  if (bytes.length < 16 || bytes.readUInt32BE(0) !== 0x3f6ff9eb) return null;
  const typeLength = bytes.readUInt32BE(8);
  const at = 12 + typeLength;
  if (at + 4 > bytes.length) return null;
  const cipherLength = bytes.readUInt32BE(at);
  if (cipherLength > 40 || at + 4 + cipherLength > bytes.length) return null;
  return bytes.toString('latin1', at + 4, at + 4 + cipherLength);
}

/** The ssh.com format's block, with its comment header, as `ssh-keygen -e` or Tectia writes it. */
function ssh2Sample(cipher: string): string {
  const string = (text: string) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(text.length, 0);
    return Buffer.concat([length, Buffer.from(text, 'latin1')]);
  };
  const head = Buffer.alloc(8);
  head.writeUInt32BE(0x3f6ff9eb, 0);
  head.writeUInt32BE(600, 4);
  const body = Buffer.concat([
    head,
    string('if-modn{sign{rsa-pkcs1-sha1},encrypt{rsa-pkcs1v2-oaep}}'),
    string(cipher),
    Buffer.from(randomString(480, BASE64, `ssh2-${cipher}`), 'base64'),
  ]).toString('base64');
  const label = 'SSH2 ENCRYPTED PRIVATE KEY';
  return [
    `---- BEGIN ${label} ----`,
    'Comment: "rsa-key-20260101"',
    ...body.match(/.{1,70}/g)!,
    `---- END ${label} ----`,
  ].join('\n');
}

/** ssh.com's own format (four dashes and spaces); "ENCRYPTED" is in every label, the cipher inside says whether it is. */
function ssh2Rule(protectedKey: boolean): SecretRule {
  return {
    ...protection(
      protectedKey,
      {
        id: 'private-key-ssh2',
        title: 'ssh.com (SSH2) private key (---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----, cipher none)',
      },
      'Passphrase-protected ssh.com (SSH2) private key (---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----)',
    ),
    keywords: ['---- BEGIN SSH2 '],
    pattern:
      /(---- BEGIN SSH2 (?:ENCRYPTED )?PRIVATE KEY ----(?:[^-]|-(?!---)){64,16000}?---- END SSH2 (?:ENCRYPTED )?PRIVATE KEY ----)/,
    window: 'block',
    maxLength: 17000,
    validate: (block) => {
      const cipher = ssh2Cipher(block);
      return cipher !== null && (cipher !== 'none') === protectedKey;
    },
    samples: lazySamples(() => ({
      match: [ssh2Sample(protectedKey ? '3des-cbc' : 'none')],
      ignore: ['---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\n<your key>\n---- END SSH2 ENCRYPTED PRIVATE KEY ----'],
    })),
  };
}

/** Base64 that may be wrapped over lines (a YAML block, a `.b64` file), as long as a stored key store's. */
const WRAPPED_BASE64 = `(?:[A-Za-z0-9+/]|\\r?\\n[ \\t]{0,12}(?=[A-Za-z0-9+/])){40,${Math.ceil((KEY_STORE_MAX_BYTES * 4) / 3)}}={0,2}`;

/** The key the decoded store holds (a trust store of certificates holds none). */
function keyOfStore(secret: string): ReturnType<typeof keyStoreKey> {
  return keyStoreKey(Buffer.from(secret.replace(/\s+/g, ''), 'base64'));
}

/** Bytes that stand for a store's key material in samples: random, never a key. */
function sampleBytes(length: number, seed: string): Buffer {
  return Buffer.from(randomString(Math.ceil((length * 4) / 3 / 4) * 4, BASE64, seed), 'base64').subarray(0, length);
}

/**
 * A key store's bytes for samples and tests: a JKS or JCEKS store with one entry (a private key, a trusted
 * certificate, or a JCEKS secret key), or a PKCS#12 file's outline (version 3, a pkcs7-data authenticated safe) with a
 * key bag or only a certificate bag. The key material is random bytes.
 */
export function keyStoreSample(
  kind: 'pkcs12' | 'jks' | 'jceks',
  entry: 'key' | 'plain-key' | 'certificate' | 'secret',
): Buffer {
  const u32 = (value: number) => {
    const out = Buffer.alloc(4);
    out.writeUInt32BE(value, 0);
    return out;
  };
  if (kind === 'pkcs12') {
    const data = [0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x01];
    const bag = [0x06, 0x0b, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x0c, 0x0a, 0x01];
    const bagType = { key: 0x02, 'plain-key': 0x01, secret: 0x05, certificate: 0x03 }[entry];
    return Buffer.concat([
      Buffer.from([0x30, 0x82, 0x04, 0x20, 0x02, 0x01, 0x03, 0x30, 0x82, 0x04, 0x00, ...data]),
      Buffer.from([0xa0, 0x82, 0x03, 0xf0, 0x04, 0x82, 0x03, 0xec, 0x30, 0x82, 0x03, 0xe8, ...bag, bagType]),
      sampleBytes(900, `pkcs12-${entry}`),
    ]);
  }
  const tag = entry === 'secret' ? 3 : entry === 'certificate' ? 2 : 1;
  const utf = (text: string) => Buffer.concat([Buffer.from([0, text.length]), Buffer.from(text, 'latin1')]);
  const body = sampleBytes(600, `${kind}-${entry}`);
  const data =
    tag === 2 ? [utf('X.509'), u32(body.length), body] : tag === 1 ? [u32(body.length), body, u32(0)] : [body];
  const magic = kind === 'jks' ? 0xfeedfeed : 0xcececece;
  return Buffer.concat([u32(magic), u32(2), u32(1), u32(tag), utf('signing'), Buffer.alloc(8, 1), ...data]);
}

const storeBase64 = (...args: Parameters<typeof keyStoreSample>) => keyStoreSample(...args).toString('base64');

/** Every line of `value` but the first indented, as a YAML block scalar holds wrapped base64. */
const wrapped = (value: string) => value.replace(/(.{76})/g, '$1\n    ').trimEnd();

/**
 * A binary key store (see `key-stores.ts`): a `.p12`/`.pfx`/`.jks`/`.jceks` file in the change is matched as its
 * base64, and the same rule finds such a store pasted into a setting. Keys sealed with the store's password are
 * passphrase-protected keys (medium; dropped with `secrets.encryptedKeys: ignore`), though that password is often a
 * default (`changeit`); a PKCS#12 key bag in the clear is a plain key. Java stores always seal their keys.
 */
function keyStoreRule(kind: 'pkcs12' | 'java', protectedKey: boolean): SecretRule {
  const pkcs12 = kind === 'pkcs12';
  const plain = pkcs12
    ? { id: 'private-key-pkcs12', title: 'PKCS#12 key store with an unencrypted private key (.p12, .pfx, base64 MII…)' }
    : { id: 'private-key-java-keystore', title: '' };
  const sealedTitle = pkcs12
    ? 'PKCS#12 key store with a password-sealed private or secret key (.p12, .pfx, base64 MII…)'
    : 'Java key store with a private or secret key (JKS, JCEKS, or their base64 /u3+7Q…, zs7Ozg…)';
  return {
    ...protection(protectedKey, plain, sealedTitle),
    // Java stores have no unsealed form: their one rule keeps the plain id.
    ...(pkcs12 ? {} : { id: plain.id }),
    keywords: pkcs12 ? ['IBAzCC'] : ['/u3+7QAAAA', 'zs7OzgAAAA'],
    // After the keyword: the rest of the PFX header (the authenticated safe's pkcs7-data OID), or a JKS version.
    gate: pkcs12 ? /[A-Za-z0-9+/]{3}GCSqGSIb3DQEH/ : /[IE]/,
    pattern: pkcs12
      ? new RegExp(`(?<![A-Za-z0-9+/])(MII[A-Za-z0-9+/]{2}[AQgw]IBAzCC[A-Za-z0-9+/]{3}GCSqGSIb3DQEH${WRAPPED_BASE64})`)
      : new RegExp(`(?<![A-Za-z0-9+/])((?:/u3\\+7Q|zs7Ozg)AAAA[IE]${WRAPPED_BASE64})`),
    window: 'block',
    maxLength: Math.ceil((KEY_STORE_MAX_BYTES * 4) / 3) + 2000,
    validate: (secret) => keyOfStore(secret) === (protectedKey ? 'sealed' : 'plain'),
    samples: lazySamples(() => ({
      key: 'KEYSTORE_BASE64',
      match: !pkcs12
        ? [storeBase64('jks', 'key'), storeBase64('jceks', 'key'), storeBase64('jceks', 'secret')]
        : protectedKey
          ? [storeBase64('pkcs12', 'key'), storeBase64('pkcs12', 'secret')]
          : [storeBase64('pkcs12', 'plain-key')],
      // Trust stores: certificates only, public.
      ignore: pkcs12 ? [storeBase64('pkcs12', 'certificate')] : [storeBase64('jks', 'certificate')],
      contexts: [
        { name: 'env', path: '.env', render: (v) => `KEYSTORE_BASE64=${v}\n` },
        { name: 'YAML block', path: 'deploy/values.yaml', render: (v) => `tls:\n  keystore: |\n    ${wrapped(v)}\n` },
        { name: 'JSON', path: 'config/app.json', render: (v) => `${JSON.stringify({ keystore: v }, null, 2)}\n` },
      ],
    })),
  };
}

/** A JSON Web Key with its secret member: `d` (RSA private exponent, EC/OKP private key) or `k` (symmetric). */
function jwkSample(kty: 'RSA' | 'EC' | 'OKP' | 'oct', withPrivate: boolean): string {
  if (kty === 'oct') {
    const key = withPrivate ? { k: randomString(43, `${ALPHANUMERIC}-_`, 'jwk-oct') } : {};
    return JSON.stringify({ kty, kid: 'hmac-1', alg: 'HS256', ...key }, null, 2);
  }
  const b64url = `${ALPHANUMERIC}-_`;
  const part = (length: number, seed: string) => randomString(length, b64url, `jwk-${kty}-${seed}`);
  const pub =
    kty === 'RSA' ? { n: part(342, 'n'), e: 'AQAB' } : { crv: kty === 'EC' ? 'P-256' : 'Ed25519', x: part(43, 'x') };
  const priv = kty === 'RSA' ? { d: part(342, 'd'), p: part(171, 'p'), q: part(171, 'q') } : { d: part(43, 'd') };
  return JSON.stringify({ kty, kid: 'signing-1', ...pub, ...(withPrivate ? priv : {}) }, null, 2);
}

export default defineRules([
  pem('RSA PRIVATE KEY', 'private-key-rsa', 'RSA private key (-----BEGIN RSA PRIVATE KEY-----)'),
  pem('EC PRIVATE KEY', 'private-key-ec', 'EC private key (-----BEGIN EC PRIVATE KEY-----)'),
  pem('DSA PRIVATE KEY', 'private-key-dsa', 'DSA private key (-----BEGIN DSA PRIVATE KEY-----)'),
  pem('OPENSSH PRIVATE KEY', 'private-key-openssh', 'OpenSSH private key (-----BEGIN OPENSSH PRIVATE KEY-----)'),
  ...(['RSA', 'EC', 'DSA', 'OPENSSH'] as const).map((kind) =>
    pem(
      `${kind} PRIVATE KEY`,
      `private-key-${kind.toLowerCase()}-passphrase`,
      `Passphrase-protected ${kind === 'OPENSSH' ? 'OpenSSH' : kind} private key (-----BEGIN ${kind} PRIVATE KEY----- with a cipher)`,
      'medium',
      true,
    ),
  ),
  pem('PRIVATE KEY', 'private-key-pkcs8', 'PKCS#8 private key (-----BEGIN PRIVATE KEY-----)'),
  {
    ...pem(
      'ENCRYPTED PRIVATE KEY',
      'private-key-encrypted',
      'Encrypted private key (-----BEGIN ENCRYPTED PRIVATE KEY-----)',
      'medium',
    ),
    passphraseProtected: true,
  },
  pem('PGP PRIVATE KEY BLOCK', 'private-key-pgp', 'PGP private key block (-----BEGIN PGP PRIVATE KEY BLOCK-----)'),
  otherPemRule(false),
  otherPemRule(true),
  ssh2Rule(false),
  ssh2Rule(true),
  puttyRule(false),
  puttyRule(true),
  {
    id: 'private-key-jwk',
    title: 'Private or symmetric JSON Web Key ("kty" with "d", or "oct" with "k")',
    severity: 'critical',
    keywords: ['"kty"'],
    // Serializers write `kty` first; the private member follows within the same object (no nested braces).
    // The whole object is the secret: besides `d`, an RSA key's `p`, `q`, `dp`, `dq` and `qi` are private too.
    pattern: /("kty"\s*:\s*"(?:RSA|EC|OKP|oct)"[^{}]{0,8000}?"[dk]"\s*:\s*"[A-Za-z0-9_-]{22,}"[^{}]{0,8000})/,
    window: 'block',
    maxLength: 9000,
    samples: lazySamples(() => ({
      match: [jwkSample('RSA', true), jwkSample('EC', true), jwkSample('OKP', true), jwkSample('oct', true)],
      ignore: [jwkSample('RSA', false), jwkSample('EC', false), '{"kty": "EC", "d": "<private key here>"}'],
      contexts: [
        { name: 'JWK file', path: 'keys/signing.jwk', render: (value) => `${value}\n` },
        { name: 'JWKS', path: 'config/jwks.json', render: (value) => `{"keys": [${value}]}\n` },
      ],
    })),
  },
  base64Rule(false),
  base64Rule(true),
  keyStoreRule('pkcs12', false),
  keyStoreRule('pkcs12', true),
  keyStoreRule('java', true),
]);
