import type { SecretRule } from '../rule.js';
import { fakeHumanPassword, fakeToken, lazySamples } from '../sample-tokens.js';
import { isUsablePassword } from '../url-password.js';
import type { ProviderInfo } from './providers.js';

/**
 * A `.netrc` entry on one line, wherever it is committed or written from (echoed into `~/.netrc` by Dockerfiles and CI
 * scripts). The hashes of `.htpasswd` and `/etc/shadow` lines are password-hash.ts's.
 */

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
      samples: lazySamples(() => ({
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
      })),
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
};
