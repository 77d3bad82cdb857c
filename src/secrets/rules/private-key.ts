import { defineRules, type SecretRule } from '../rule.js';
import { base64Of, fakePem } from '../sample-tokens.js';

/** Key material must be there: a header with `...` or a few characters between the lines is documentation. */
function hasKeyBody(block: string): boolean {
  const body = block
    .replace(/-----(?:BEGIN|END)[^-]{0,60}-----/g, '')
    .replace(/\\[nr]/g, '')
    .replace(/^[A-Za-z-]+:.*$/gm, '')
    .replace(/[^A-Za-z0-9+/=]/g, '');
  return body.length >= 64;
}

function pem(label: string, id: string, title: string, severity: SecretRule['severity'] = 'critical'): SecretRule {
  const escaped = label.replace(/ /g, ' ');
  return {
    id,
    title,
    severity,
    keywords: [`BEGIN ${label}`],
    // The body may be split by real newlines or by `\n` escapes (JSON, notebooks); it never holds five dashes.
    pattern: new RegExp(`(-----BEGIN ${escaped}-----(?:[^-]|-(?!----)){64,16000}?-----END ${escaped}-----)`),
    window: 'block',
    maxLength: 17000,
    validate: hasKeyBody,
    samples: {
      match: [fakePem(label)],
      ignore: [
        `-----BEGIN ${label}-----\\n...\\n-----END ${label}-----`,
        `-----BEGIN ${label}-----\n<your key here>\n-----END ${label}-----`,
      ],
    },
  };
}

export default defineRules([
  pem('RSA PRIVATE KEY', 'private-key-rsa', 'RSA private key (-----BEGIN RSA PRIVATE KEY-----)'),
  pem('EC PRIVATE KEY', 'private-key-ec', 'EC private key (-----BEGIN EC PRIVATE KEY-----)'),
  pem('DSA PRIVATE KEY', 'private-key-dsa', 'DSA private key (-----BEGIN DSA PRIVATE KEY-----)'),
  pem('OPENSSH PRIVATE KEY', 'private-key-openssh', 'OpenSSH private key (-----BEGIN OPENSSH PRIVATE KEY-----)'),
  pem('PRIVATE KEY', 'private-key-pkcs8', 'PKCS#8 private key (-----BEGIN PRIVATE KEY-----)'),
  pem(
    'ENCRYPTED PRIVATE KEY',
    'private-key-encrypted',
    'Encrypted private key (-----BEGIN ENCRYPTED PRIVATE KEY-----)',
    'medium',
  ),
  pem('PGP PRIVATE KEY BLOCK', 'private-key-pgp', 'PGP private key block (-----BEGIN PGP PRIVATE KEY BLOCK-----)'),
  {
    id: 'private-key-putty',
    title: 'PuTTY private key (PuTTY-User-Key-File-…)',
    severity: 'critical',
    keywords: ['PuTTY-User-Key-File-'],
    pattern:
      /(PuTTY-User-Key-File-\d: [^\r\n]{1,40}\r?\n(?:[^\r\n]{0,200}\r?\n){1,40}?Private-Lines: \d{1,3}\r?\n[A-Za-z0-9+/=\r\n]{64,8000})/,
    window: 'block',
    maxLength: 12000,
    samples: {
      match: [
        `PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: deploy\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAIHf2\nq8Vd\nPrivate-Lines: 1\n${fakePem('X').split('\n')[1]}`,
      ],
      ignore: ['PuTTY-User-Key-File-3: ssh-ed25519'],
      contexts: [{ name: 'ppk file', path: 'deploy.ppk', render: (value) => `${value}\n` }],
    },
  },
  {
    id: 'private-key-base64',
    title: 'Base64-wrapped private key (LS0tLS1CRUdJTi…)',
    severity: 'critical',
    keywords: ['LS0tLS1CRUdJTi'],
    // kubeconfig `client-key-data`, k8s Secret `data:` and Helm values hold PEM keys in base64.
    pattern: /(LS0tLS1CRUdJTi[A-Za-z0-9+/]{100,24000}={0,2})/,
    window: 'block',
    maxLength: 25000,
    validate: (secret) => {
      const text = Buffer.from(secret, 'base64').toString('latin1');
      return /-----BEGIN [A-Z ]{0,20}PRIVATE KEY/.test(text) && hasKeyBody(text);
    },
    samples: {
      match: [base64Of(fakePem('RSA PRIVATE KEY'))],
      ignore: [base64Of(fakePem('CERTIFICATE')), base64Of(fakePem('PUBLIC KEY'))],
    },
  },
]);
