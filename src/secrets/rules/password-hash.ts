import { defineRules, type SampleContext, type SecretRule } from '../rule.js';
import { fakeHex, fakeToken, lazySamples } from '../sample-tokens.js';
import type { ProviderInfo } from './providers.js';

/**
 * Password hashes in the crypt(3) formats (`/etc/shadow`, `.htpasswd`, seeded users, Ansible `password:`), and
 * Kerberos roasting output. A hash is not the password, but a weak or reused password falls to an offline attack on
 * it, so each is worth a look. Lengths and the alphabet are exact per scheme, and where the encoding leaves the
 * last character's low bits zero that is checked too: a hand-edited stand-in rarely keeps them.
 */
export const PASSWORD_HASH_INFO: ProviderInfo = {
  name: 'Password hash',
  reference: 'https://man7.org/linux/man-pages/man5/crypt.5.html',
  format: true,
};

/** The crypt alphabet in the order md5crypt and sha-crypt encode with (`./0-9A-Za-z`); bcrypt orders it `./A-Za-z0-9`. */
const CRYPT = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BCRYPT = './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const C = '[./A-Za-z0-9]';
const END = '(?![./A-Za-z0-9$])';
/**
 * Not inside a longer token, and not a result shown in a comment (`# => "$2a$…"`, `# pwdhash => "$6$…"`): docs
 * print what a hashing call returns that way.
 */
const START = `(?<![A-Za-z0-9$])(?<!(?:^|\\n)[ \\t]*(?:#|//)[^\\r\\n]{0,80}=>[ \\t]{0,4}["']?)`;

/** Whether the last character of an encoded digest leaves `zeroBits` low bits zero in `alphabet`. */
const lastCharFits = (encoded: string, alphabet: string, zeroBits: number) =>
  alphabet.indexOf(encoded.at(-1) ?? '') % 2 ** zeroBits === 0;
/** Whether the last character of an encoded digest is below `limit` in `alphabet` (md5crypt, sha-crypt tails). */
const lastCharBelow = (encoded: string, limit: number) => {
  const index = CRYPT.indexOf(encoded.at(-1) ?? '');
  return index >= 0 && index < limit;
};
const digestOf = (hash: string) => hash.slice(hash.lastIndexOf('$') + 1);

/** A crypt sample: `$id$salt$digest`, its digest's tail picked from the characters the scheme can end with. */
const cryptSample = (id: string, salt: string, digestLength: number, tails: string, seed: string) =>
  `$${id}$${salt}$${fakeToken('', digestLength - 1, CRYPT, seed)}${tails[seed.length % tails.length]}`;

const hashRule = ({
  match,
  ignore,
  contexts,
  ...rule
}: Pick<SecretRule, 'id' | 'title' | 'keywords' | 'pattern' | 'validate' | 'reference'> & {
  severity?: SecretRule['severity'];
  /** The samples, made when first read (see `lazySamples`). */
  match: () => string[];
  ignore: () => string[];
  contexts?: SampleContext[];
}): SecretRule => ({
  severity: 'medium',
  entropy: 3,
  ...rule,
  samples: lazySamples(() =>
    contexts
      ? { match: match(), ignore: ignore(), contexts }
      : { key: 'password_hash', match: match(), ignore: ignore() },
  ),
});

const bcryptSalt = `${fakeToken('', 21, BCRYPT, 'bcrypt-salt')}e`;
const bcryptDigest = `${fakeToken('', 30, BCRYPT, 'bcrypt-digest')}u`;

export default defineRules([
  // bcrypt: `$2a$`/`$2b$`/`$2y$`, a two-digit cost (4–31), 22 characters of salt (16 bytes: the last character's
  // low four bits are zero) and 31 of digest (23 bytes: the low two bits).
  hashRule({
    id: 'password-hash-bcrypt',
    title: 'bcrypt password hash ($2b$…)',
    keywords: ['$2a$', '$2b$', '$2y$'],
    pattern: new RegExp(`${START}(\\$2[aby]\\$(?:0[4-9]|[12][0-9]|3[01])\\$${C}{53})${END}`),
    validate: (hash) => {
      const body = hash.slice(7);
      return lastCharFits(body.slice(0, 22), BCRYPT, 4) && lastCharFits(body, BCRYPT, 2);
    },
    match: () => [`$2b$12$${bcryptSalt}${bcryptDigest}`, `$2y$10$${bcryptSalt}${bcryptDigest}`],
    ignore: () => [
      `$2b$12$${bcryptSalt}${bcryptDigest.slice(0, -1)}v`,
      `$2b$12$${bcryptSalt.slice(0, -1)}f${bcryptDigest}`,
      `$2b$99$${bcryptSalt}${bcryptDigest}`,
    ],
  }),
  // md5crypt `$1$`: up to 8 characters of salt, 22 of digest whose last character encodes two bits.
  hashRule({
    id: 'password-hash-md5crypt',
    title: 'MD5-crypt password hash ($1$…)',
    keywords: ['$1$'],
    pattern: new RegExp(`${START}(\\$1\\$${C}{1,8}\\$${C}{22})${END}`),
    validate: (hash) => lastCharBelow(digestOf(hash), 4),
    match: () => [cryptSample('1', fakeToken('', 8, CRYPT, 'md5-salt'), 22, './01', 'md5crypt')],
    ignore: () => [`$1$${fakeToken('', 8, CRYPT, 'md5-salt')}$${fakeToken('', 21, CRYPT, 'md5-bad')}z`, '$1$salt$'],
  }),
  // Apache's MD5 variant `$apr1$` (`.htpasswd`): the same salt and digest as md5crypt.
  hashRule({
    id: 'password-hash-apr1',
    title: 'Apache MD5 password hash ($apr1$…)',
    keywords: ['$apr1$'],
    // As for yescrypt, the secret starts after `$apr1$`: `$letter…` reads as a shell reference.
    pattern: new RegExp(`${START}\\$apr1\\$(${C}{1,8}\\$${C}{22})${END}`),
    validate: (hash) => lastCharBelow(digestOf(hash), 4),
    match: () => [cryptSample('apr1', fakeToken('', 8, CRYPT, 'apr1-salt'), 22, './01', 'apr1')],
    ignore: () => [`$apr1$${fakeToken('', 8, CRYPT, 'apr1-salt')}$${fakeToken('', 21, CRYPT, 'apr1-bad')}z`],
  }),
  // SHA-crypt `$5$` (43 characters of digest, the last encoding four bits) and `$6$` (86, the last two bits), with
  // an optional `rounds=N$` and up to 16 characters of salt.
  hashRule({
    id: 'password-hash-sha256crypt',
    title: 'SHA-256-crypt password hash ($5$…)',
    keywords: ['$5$'],
    pattern: new RegExp(`${START}(\\$5\\$(?:rounds=[0-9]{1,9}\\$)?${C}{1,16}\\$${C}{43})${END}`),
    validate: (hash) => lastCharBelow(digestOf(hash), 16),
    match: () => [
      cryptSample('5', fakeToken('', 16, CRYPT, 'sha256-salt'), 43, 'ABCD', 'sha256crypt'),
      cryptSample('5', `rounds=5000$${fakeToken('', 12, CRYPT, 'sha256-r')}`, 43, './01', 'sha256-rounds'),
    ],
    ignore: () => [`$5$${fakeToken('', 16, CRYPT, 'sha256-salt')}$${fakeToken('', 42, CRYPT, 'sha256-bad')}z`],
  }),
  hashRule({
    id: 'password-hash-sha512crypt',
    title: 'SHA-512-crypt password hash ($6$…)',
    keywords: ['$6$'],
    pattern: new RegExp(`${START}(\\$6\\$(?:rounds=[0-9]{1,9}\\$)?${C}{1,16}\\$${C}{86})${END}`),
    validate: (hash) => lastCharBelow(digestOf(hash), 4),
    match: () => [cryptSample('6', fakeToken('', 16, CRYPT, 'sha512-salt'), 86, './01', 'sha512crypt')],
    ignore: () => [`$6$${fakeToken('', 16, CRYPT, 'sha512-salt')}$${fakeToken('', 85, CRYPT, 'sha512-bad')}Z`],
  }),
  // yescrypt `$y$` (today's default in Debian, Ubuntu and Fedora shadow files): parameters, salt, 43 of digest.
  hashRule({
    id: 'password-hash-yescrypt',
    title: 'yescrypt password hash ($y$…)',
    keywords: ['$y$'],
    // The secret starts after `$y$`: a value starting `$letter` reads as a shell reference, which is never reported.
    pattern: new RegExp(`${START}\\$y\\$(${C}{1,12}\\$${C}{4,86}\\$${C}{43})${END}`),
    match: () => [`$y$j9T$${fakeToken('', 22, CRYPT, 'yescrypt-salt')}$${fakeToken('', 43, CRYPT, 'yescrypt-digest')}`],
    ignore: () => [`$y$j9T$${fakeToken('', 22, CRYPT, 'yescrypt-salt')}$short`],
  }),
  // Cisco IOS type 8 (PBKDF2-SHA256) and type 9 (scrypt) secrets: 14 characters of salt, 43 of digest.
  hashRule({
    id: 'password-hash-cisco-type8-9',
    title: 'Cisco IOS type 8/9 secret ($8$…, $9$…)',
    keywords: ['$8$', '$9$'],
    pattern: new RegExp(`${START}(\\$[89]\\$${C}{14}\\$${C}{43})${END}`),
    match: () => [`$9$${fakeToken('', 14, CRYPT, 'cisco-salt')}$${fakeToken('', 43, CRYPT, 'cisco-digest')}`],
    ignore: () => [`$9$${fakeToken('', 13, CRYPT, 'cisco-salt')}$${fakeToken('', 43, CRYPT, 'cisco-digest')}`],
  }),
  // htpasswd's `{SHA}` (base64 of a SHA-1 digest: 28 characters) and LDAP's salted `{SSHA}`, right after `user:`:
  // the crypt formats above carry their own `$id$`, these only their prefix.
  // https://httpd.apache.org/docs/2.4/misc/password_encryptions.html
  hashRule({
    id: 'password-hash-htpasswd-sha',
    title: 'SHA-1 password hash in an htpasswd line (user:{SHA}…, {SSHA}…)',
    reference: 'https://httpd.apache.org/docs/2.4/misc/password_encryptions.html',
    keywords: ['{sha}', '{ssha}'],
    pattern: /(?:^|[\s'"`>])[a-z_][a-z0-9_.@-]{0,31}:\{S?SHA\}([A-Za-z0-9+/]{27,60}={0,2})(?=[:'"`\s]|$)/,
    match: () => [`${fakeToken('', 27, undefined, 'htpasswd-sha')}=`],
    ignore: () => ['hash', 'c2hhMQ=='],
    contexts: [
      { name: '.htpasswd', path: 'deploy/nginx/.htpasswd', render: (v) => `admin:{SHA}${v}\n` },
      {
        name: 'Dockerfile',
        path: 'Dockerfile',
        render: (v) => `RUN echo 'admin:{SHA}${v}' > /etc/nginx/.htpasswd\n`,
      },
    ],
  }),
  // Kerberos RC4 AS-REP and TGS-REP roasting output (hashcat modes 18200 and 13100): a 32-hex checksum, then the
  // encrypted part in hex. https://hashcat.net/wiki/doku.php?id=example_hashes
  hashRule({
    id: 'password-hash-kerberos-roast',
    title: 'Kerberos AS-REP/TGS-REP roasting hash ($krb5asrep$23$…, $krb5tgs$23$…)',
    severity: 'high',
    reference: 'https://hashcat.net/wiki/doku.php?id=example_hashes',
    keywords: ['$krb5asrep$', '$krb5tgs$'],
    pattern:
      /(?<![A-Za-z0-9$])\$krb5(?:asrep|tgs)\$23\$((?:[^$:\s*]{1,128}:|\*[^*\s]{1,256}\*\$)?[0-9a-f]{32}\$[0-9a-f]{64,8192})(?![0-9a-f])/,
    match: () => [
      `$krb5asrep$23$svc-backup@corp.internal:${fakeHex(32, 'asrep-sum')}$${fakeHex(232, 'asrep-data')}`,
      `$krb5tgs$23$*sqlsvc$CORP.INTERNAL$MSSQLSvc/db01*$${fakeHex(32, 'tgs-sum')}$${fakeHex(290, 'tgs-data')}`,
    ],
    ignore: () => [`$krb5asrep$23$${fakeHex(32, 'asrep-short')}$${fakeHex(20, 'asrep-tail')}`],
  }),
]);
