import { defineRules, type SecretRule } from '../rule.js';
import { ALPHANUMERIC, base64Of, fakePem, randomString } from '../sample-tokens.js';

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
  const plain = fakePem(label);
  const encrypted = encryptedSample(label);
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
    samples: {
      match: [
        protectedKey ? encrypted : plain,
        ...(protectedKey || !label.endsWith('PRIVATE KEY') ? [] : [mismatchedEnd(plain, label)]),
      ],
      ignore: [
        `-----BEGIN ${label}-----\\n...\\n-----END ${label}-----`,
        `-----BEGIN ${label}-----\n<your key here>\n-----END ${label}-----`,
      ],
    },
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
  const plain = key('none');
  const encrypted = key('aes256-cbc');
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
    samples: {
      match: [protectedKey ? encrypted : plain],
      ignore: ['PuTTY-User-Key-File-3: ssh-ed25519'],
      contexts: [{ name: 'ppk file', path: 'deploy.ppk', render: (value) => `${value}\n` }],
    },
  };
}

/** kubeconfig `client-key-data`, k8s Secret `data:` and Helm values hold PEM keys in base64. */
function base64Rule(protectedKey: boolean): SecretRule {
  const encrypted = encryptedSample('RSA PRIVATE KEY');
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
    samples: {
      match: [base64Of(protectedKey ? encrypted : fakePem('RSA PRIVATE KEY'))],
      // (The other form of the key is the other rule's match; load-rules.test.ts checks that each reports only its own.)
      ignore: [base64Of(fakePem('CERTIFICATE')), base64Of(fakePem('PUBLIC KEY'))],
    },
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
    samples: {
      match: [jwkSample('RSA', true), jwkSample('EC', true), jwkSample('OKP', true), jwkSample('oct', true)],
      ignore: [jwkSample('RSA', false), jwkSample('EC', false), '{"kty": "EC", "d": "<private key here>"}'],
      contexts: [
        { name: 'JWK file', path: 'keys/signing.jwk', render: (value) => `${value}\n` },
        { name: 'JWKS', path: 'config/jwks.json', render: (value) => `{"keys": [${value}]}\n` },
      ],
    },
  },
  base64Rule(false),
  base64Rule(true),
]);
