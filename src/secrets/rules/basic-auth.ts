import { GATES } from '../generic-gates.js';
import { defineRules } from '../rule.js';
import { base64Of, fakeHumanPassword, fakeToken, lazySamples } from '../sample-tokens.js';
import { isUsablePassword } from '../url-password.js';
import { decodesToUserAndPassword } from './npm.js';

/**
 * A curl password as docs show it and people fill it in: one pair of brackets around it is the doc's placeholder
 * syntax (`{password}`, `[PASSWORD]`, `<user:password>`), kept around a real value (`"{apikey}":"{s3cr…}"`) or not.
 */
function isUsableCurlPassword(password: string): boolean {
  const inner = password.replace(/^\{([^{}]*)\}$|^\[([^[\]]*)\]$|^([^<>]*)>$/, '$1$2$3');
  return !/^(.)\1*$/.test(inner) && isUsablePassword(inner);
}

/** The hosts documentation uses (RFC 2606), and their subdomains: credentials there are examples. */
function isDocumentationHost(host: string | undefined): boolean {
  return host !== undefined && /^(?:[\w-]+\.)*example\.(?:com|org|net)\b/i.test(host);
}

/**
 * Schemes whose URLs may carry `user:password@` (databases and brokers have rules of their own): web, file transfer,
 * mail, directory, proxies, media streams, version control, remote shells and shares.
 */
const URL_SCHEMES = [
  'http',
  'https',
  'ftp',
  'ftps',
  'ftpes',
  'sftp',
  'tftp',
  'scp',
  'smtp',
  'smtps',
  'imap',
  'imaps',
  'pop3',
  'pop3s',
  'ldap',
  'ldaps',
  'ssh',
  'ws',
  'wss',
  'socks4',
  'socks4a',
  'socks5',
  'socks5h',
  'rtsp',
  'rtsps',
  'rtmp',
  'rtmps',
  'rtmpe',
  'rtmpt',
  'svn',
  'telnet',
  'smb',
  'cifs',
  'rsync',
  'vnc',
  'rdp',
  'sip',
  'xmpp',
  'irc',
  'nntp',
  'dav',
  'davs',
  'webdav',
  'webdavs',
  'hdfs',
];

export default defineRules([
  {
    id: 'basic-auth-url',
    title: 'URL with embedded credentials (https://user:password@…)',
    severity: 'high',
    keywords: URL_SCHEMES.map((scheme) => `${scheme}://`),
    gate: GATES.urlUser,
    pattern: new RegExp(
      `(?:git\\+|svn\\+)?(?:${URL_SCHEMES.join('|')}):\\/\\/[^\\s:/@'"\`<>]{1,100}:([^\\s@'"\`<>/]{1,200})@(?<host>[A-Za-z0-9[][^\\s/?#@'"\`<>]{0,253})`,
      'i',
    ),
    // The host is matched, not excluded by the pattern, so that `--report-allowed` can say why the value was dropped.
    validate: (password, context) => !isDocumentationHost(context.host) && isUsablePassword(password),
    rejectedBecause: (_password, context) =>
      isDocumentationHost(context.host)
        ? 'a documentation host (example.com, example.net, example.org)'
        : 'a placeholder, reference or default password',
    samples: lazySamples(() => ({
      match: [
        `https://deploy:${encodeURIComponent(fakeHumanPassword())}@artifacts.acme.internal/repo`,
        `https://ci-bot:${fakeToken('', 32)}@git.acme.internal/app.git`,
      ],
      ignore: [
        'https://user:password@example.com',
        `https://\${USER}:\${TOKEN}@git.acme.internal`,
        'https://admin:<password>@host',
      ],
    })),
  },
  {
    id: 'basic-auth-header',
    title: 'HTTP Basic authorization header (Basic …)',
    severity: 'high',
    keywords: ['basic '],
    gate: /[ \t]{0,3}[A-Za-z0-9+/]{8}/,
    pattern: /Basic[ \t]{1,4}([A-Za-z0-9+/]{8,200}={0,2})(?![A-Za-z0-9+/=])/,
    validate: decodesToUserAndPassword,
    samples: lazySamples(() => ({
      match: [`Basic ${base64Of(`api:${fakeHumanPassword()}`)}`],
      ignore: [`Basic ${base64Of(`user:\${PASSWORD}`)}`, 'Basic authentication is enabled'],
    })),
  },
  {
    // The base64 `user:password` of a Basic header, stored under an auth-named key (`"basic_auth": "…"`,
    // `user_auth`, `proxy_auth`), as Docker's `"auth"` stores it. It must decode to a printable `user:password`.
    id: 'basic-auth-encoded-named',
    title: 'Base64 user:password under an auth-named key (basic_auth = "…")',
    severity: 'high',
    keywords: ['_auth', '-auth', '.auth'],
    gate: /[A-Za-z0-9]{0,4}\\?["']?[ \t]{0,4}(?::=|=|:)[ \t]{0,4}\\?["']/,
    pattern:
      /(?<![A-Za-z0-9_.-])[A-Za-z0-9_.-]{1,40}[_.-]auth[A-Za-z0-9]{0,4}\\?["']?[ \t]{0,4}(?::=|=|:)[ \t]{0,4}\\?["']([A-Za-z0-9+/]{12,400}={0,2})\\?["']/i,
    validate: decodesToUserAndPassword,
    samples: lazySamples(() => ({
      key: 'basic_auth',
      match: [base64Of(`deploy:${fakeHumanPassword('encoded-named')}`)],
      ignore: [base64Of(`deploy:\${PASSWORD}`), base64Of('just some text'), 'dGVzdA==', 'ZGVwbG95Og=='],
      contexts: [
        { name: 'JSON', path: 'config/client.json', render: (v) => `{\n  "user_auth": "${v}"\n}\n` },
        { name: 'YAML', path: 'config/client.yaml', render: (v) => `proxy:\n  basic_auth: "${v}"\n` },
        { name: 'Python', path: 'app/client.py', render: (v) => `HTTP_AUTH = '${v}'\n` },
      ],
    })),
  },
  {
    id: 'basic-auth-curl',
    title: 'curl credentials (curl -u user:password)',
    severity: 'high',
    keywords: ['curl '],
    // Options may come before `-u` on the same line or on lines continued with `\`; the user may be empty (`-u :pw`).
    window: 'block',
    maxLength: 600,
    // The shell joins quoted and bare parts of one word: `-u kevin:'pw'` and `--user "user":"pw"` are `user:pw` too.
    pattern:
      /curl(?:[ \t](?:[^\r\n\\]|\\(?:\r?\n)?){0,300}?)?[ \t](?:-u|--user|--proxy-user|-U)[ \t=]{1,2}\\?["']?[^\s:'"\\]{0,60}(?:\\?["'](?=:))?:(?:\\?["'])?([^\s'"()\\]{1,100})/,
    validate: isUsableCurlPassword,
    samples: lazySamples(() => ({
      match: [
        `curl -sS -u admin:${fakeHumanPassword()} https://api.acme.internal/v1`,
        `curl -u deploy:${fakeToken('', 16, undefined, 'curl-user')} https://api.acme.internal/v1`,
        `curl -k -X POST https://api.acme.internal/v1 \\\n  -H 'Accept: text/plain' \\\n  -u deploy:${fakeHumanPassword('curl-continued')}`,
        `curl --user ":${fakeToken('', 14, undefined, 'curl-empty-user')}" https://search.acme.internal:9200`,
        `curl --user deploy:'${fakeToken('', 16, undefined, 'curl-quoted-pw')}' -X PATCH https://api.acme.internal/v1`,
        `curl --user "deploy":"${fakeToken('', 14, undefined, 'curl-quoted-parts')}" https://api.acme.internal/v1`,
        `curl --user "{deploy}":"{${fakeToken('', 14, undefined, 'curl-braced')}}" https://api.acme.internal/v1`,
      ],
      ignore: [
        'curl -u admin:$ADMIN_PASSWORD https://api.acme.internal',
        'curl -u "$USER:$PASS" https://host',
        'curl -u <user:password> https://api.acme.internal/v1',
        'curl --user deploy:[PASSWORD] https://api.acme.internal/v1',
        'curl --user "xxx:yyy" https://api.acme.internal/v1',
      ],
    })),
  },
  {
    // Many HTTP APIs take the API key as the basic-auth user with an empty password, and document it as
    // `curl -u KEY:` (Stripe, Recurly, Chargify, Mailgun-style APIs). A user that long and random is a key, not a name.
    id: 'basic-auth-curl-key-user',
    title: 'API key as the curl user, empty password (curl -u KEY:)',
    reference: 'https://docs.stripe.com/api/authentication',
    severity: 'high',
    keywords: ['curl '],
    window: 'block',
    maxLength: 600,
    pattern:
      /curl(?:[ \t](?:[^\r\n\\]|\\(?:\r?\n)?){0,300}?)?[ \t](?:-u|--user)[ \t=]{1,2}\\?["']?([A-Za-z0-9_.+/=!-]{16,200}):(?=\\?["'`]|\s|$)/,
    entropy: 3.5,
    validate: (secret) => /[0-9]/.test(secret) && /[A-Za-z]/.test(secret) && isUsablePassword(secret),
    samples: lazySamples(() => ({
      match: [
        `curl https://api.acme.internal/v1/charges -u ${fakeToken('', 32, undefined, 'curl-key-user')}:`,
        `curl -u "${fakeToken('', 24, undefined, 'curl-key-user-quoted')}:" https://search.acme.internal:9200`,
      ],
      ignore: [
        'curl -u deploy-automation-user: https://api.acme.internal',
        'curl -u "$STRIPE_SECRET_KEY:" https://api.acme.internal',
        'curl -u abcdefghijklmnopqrstuvwxyz0123456789: https://api.acme.internal',
      ],
    })),
  },
]);
