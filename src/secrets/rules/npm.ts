import { hasValidTokenChecksum } from '../checksum.js';
import { defineRules } from '../rule.js';
import { namedValue } from '../rule-builders.js';
import {
  base64Of,
  fakeChecksumToken,
  fakeHex,
  fakeHumanPassword,
  lazySamples,
  wrongChecksumToken,
} from '../sample-tokens.js';

const uuid = (seed: string) => [8, 4, 4, 4, 12].map((length, index) => fakeHex(length, `${seed}${index}`)).join('-');

export default defineRules([
  // npm tokens were UUIDs until 2021 (`npm_…` since); old ones still sit in CI settings as NPM_TOKEN.
  namedValue({
    id: 'npm-legacy-token-named',
    title: 'npm access token, pre-2021 format (UUID, under an npm-named key)',
    provider: 'npm',
    body: '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}',
    severity: 'critical',
    key: 'NPM_TOKEN',
    match: () => [uuid('npm-legacy')],
    ignore: () => ['00000000-0000-0000-0000-000000000000'],
  }),
  {
    id: 'npm-access-token',
    title: 'npm access token (npm_…)',
    severity: 'critical',
    keywords: ['npm_'],
    pattern: /(?<![A-Za-z0-9_])(npm_[A-Za-z0-9]{36})(?![A-Za-z0-9])/,
    validate: hasValidTokenChecksum,
    samples: lazySamples(() => ({
      match: [fakeChecksumToken('npm_'), fakeChecksumToken('npm_')],
      ignore: [wrongChecksumToken('npm_'), 'npm_' + 'x'.repeat(36), `npm_\${NPM_TOKEN}`],
    })),
  },
  {
    id: 'npm-legacy-auth-token',
    title: 'npm legacy auth token (_authToken=…)',
    severity: 'high',
    keywords: ['_authtoken'],
    pattern:
      /_authToken["']?[ \t]{0,2}[=:][ \t]{0,2}["']?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?![A-Za-z0-9-])/i,
    samples: lazySamples(() => ({
      key: '//registry.npmjs.org/:_authToken',
      match: [`${fakeHex(8)}-${fakeHex(4)}-4${fakeHex(3)}-a${fakeHex(3)}-${fakeHex(12)}`],
      ignore: [`\${NPM_TOKEN}`],
    })),
  },
  {
    id: 'npm-basic-auth',
    title: 'npm registry basic auth (_auth=…)',
    severity: 'high',
    keywords: ['_auth'],
    pattern: /(?<![A-Za-z0-9])_auth["']?[ \t]{0,2}[=:][ \t]{0,2}["']?([A-Za-z0-9+/]{8,200}={0,2})(?![A-Za-z0-9+/=])/,
    validate: (secret) => decodesToUserAndPassword(secret),
    samples: lazySamples(() => ({
      key: '//npm.acme.dev/:_auth',
      match: [base64Of(`deploy:${fakeHumanPassword()}`)],
      ignore: [base64Of(`user:\${NPM_PASSWORD}`), base64Of('nocolon')],
    })),
  },
]);

/** `user:password` in base64, with a password that is not a placeholder. */
export function decodesToUserAndPassword(encoded: string): boolean {
  const text = Buffer.from(encoded, 'base64').toString('latin1');
  if (!/^[\x20-\x7e]+$/.test(text)) return false;
  const colon = text.indexOf(':');
  if (colon <= 0 || colon === text.length - 1) return false;
  const password = text.slice(colon + 1);
  return password.length >= 4 && !/^\$\{|^\$[A-Z_]|^<|^x+$|^\*+$/i.test(password);
}
