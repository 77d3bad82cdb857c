import type { SecretRule } from '../rule.js';
import { fakeHumanPassword, fakeToken } from '../sample-tokens.js';
import { isUsablePassword } from '../url-password.js';
import type { ProviderInfo } from './providers.js';

/**
 * Lines of the files Unix tools keep passwords in, wherever they are committed or written from: a `.netrc` entry on one
 * line (echoed into `~/.netrc` by Dockerfiles and CI scripts), and `user:hash` lines of `.htpasswd` and
 * `/etc/shadow`, whose hashes are worth a look (offline cracking of weak passwords, reuse of the file itself).
 */

/** The alphabet of crypt(3) hashes and salts. */
const CRYPT = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789./';

const RULES: Record<string, readonly SecretRule[]> = {
  netrc: [
    {
      id: 'netrc-inline-password',
      title: 'Password in a .netrc entry (machine … login … password …)',
      severity: 'high',
      keywords: ['machine '],
      gate: /[^\s]{1,253}[ \t]+login[ \t]/i,
      // A `.netrc` file itself is read line by line by the generic .netrc rule.
      allowlist: { paths: [/(?:^|\/)[._]netrc$/] },
      pattern:
        /(?<![A-Za-z0-9_-])machine[ \t]+[^\s]{1,253}[ \t]+login[ \t]+[^\s]{1,100}[ \t]+password[ \t]+["']?([^\s"']{1,200})/i,
      validate: isUsablePassword,
      samples: {
        match: [fakeHumanPassword('netrc-inline'), fakeToken('', 20, undefined, 'netrc-inline-token')],
        ignore: ['%s', '$GITHUB_TOKEN', '<password>', 'changeme'],
        contexts: [
          {
            name: 'Dockerfile',
            path: 'Dockerfile',
            render: (v) => `RUN echo "machine git.acme.internal login ci password ${v}" > /root/.netrc\n`,
          },
          {
            name: 'CI script',
            path: 'ci/setup.sh',
            render: (v) => `printf 'machine api.acme.internal login deploy password ${v}\\n' >> ~/.netrc\n`,
          },
        ],
      },
    },
  ],
  'password-hash': [
    // `user:hash` as htpasswd writes it (`$apr1$` MD5, `$2y$` bcrypt, `{SHA}`) and as the first fields of a shadow
    // line (`$1$`, `$5$`, `$6$` crypt, `$y$` yescrypt, then `:days:…`). Only right after `user:`, so that a hash stored
    // in a YAML fixture (`encrypted_password: "$2a$…"`) is left to the rules for password assignments.
    {
      id: 'password-hash-htpasswd-shadow',
      title: 'Password hash in an htpasswd or shadow line (user:$…$…)',
      reference: 'https://httpd.apache.org/docs/2.4/misc/password_encryptions.html',
      severity: 'medium',
      keywords: ['$apr1$', '$2y$', '$2a$', '$2b$', '{sha}', '{ssha}', '$1$', '$5$', '$6$', '$y$'],
      // The secret group starts after the algorithm's `$id$`: `$apr1…` alone reads as a shell variable.
      pattern:
        /(?:^|[\s'"`>])[a-z_][a-z0-9_.@-]{0,31}:(?:\$(?:apr1|1|5|6)\$(?:rounds=\d{1,9}\$)?(?<secretCrypt>[A-Za-z0-9./]{1,16}\$[A-Za-z0-9./]{22,86})|\$2[aby]\$\d\d\$(?<secretBcrypt>[A-Za-z0-9./]{53})|\$y\$(?<secretYescrypt>[A-Za-z0-9./]{1,8}\$[A-Za-z0-9./]{1,86}\$[A-Za-z0-9./]{43})|\{SSHA?\}(?<secretSha>[A-Za-z0-9+/]{27,60}={0,2}))(?=[:'"`\s]|$)/,
      entropy: 3.5,
      samples: {
        match: [
          `$apr1$${fakeToken('', 8, CRYPT, 'apr1-salt')}$${fakeToken('', 22, CRYPT, 'apr1-hash')}`,
          `$2y$10$${fakeToken('', 53, CRYPT, 'bcrypt')}`,
          `$6$${fakeToken('', 16, CRYPT, 'sha512-salt')}$${fakeToken('', 86, CRYPT, 'sha512-hash')}`,
        ],
        ignore: ['$apr1$salt$hash', '!', '*'],
        contexts: [
          { name: '.htpasswd', path: 'deploy/nginx/.htpasswd', render: (v) => `admin:${v}\n` },
          {
            name: 'Dockerfile',
            path: 'Dockerfile',
            render: (v) => `RUN echo 'admin:${v}' > /etc/nginx/.htpasswd\n`,
          },
          { name: 'shadow', path: 'rootfs/etc/shadow', render: (v) => `root:${v}:19700:0:99999:7:::\n` },
        ],
      },
    },
  ],
};

export const PASSWORD_FILE_RULES: Readonly<Record<string, readonly SecretRule[]>> = RULES;

export const PASSWORD_FILE_INFO: Readonly<Record<string, ProviderInfo>> = {
  netrc: {
    name: 'netrc credentials',
    reference: 'https://www.gnu.org/software/inetutils/manual/html_node/The-_002enetrc-file.html',
    format: true,
  },
  'password-hash': {
    name: 'Password hashes',
    reference: 'https://man7.org/linux/man-pages/man5/shadow.5.html',
    format: true,
  },
};
