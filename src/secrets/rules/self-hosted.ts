import type { SecretRule } from '../rule.js';
import { TOKEN_START } from '../rule-builders.js';
import { base64UrlOf, fakeHex, fakeToken, LOWER_ALPHANUMERIC, lazySamples, URL_SAFE } from '../sample-tokens.js';
import { mixesDigitsAndCases } from '../token-shape.js';
import type { ProviderInfo } from './providers.js';

/**
 * Credentials of software people run themselves (CI servers, NAS appliances, IoT platforms, clusters): their tokens
 * have fixed shapes but no vendor-wide prefix, so each rule pairs the shape with where it is used. Formats are the
 * products' own documentation; regexes and samples are ours.
 */

const vendor = (name: string, reference: string): ProviderInfo => ({ name, reference });

export const SELF_HOSTED_INFO: Readonly<Record<string, ProviderInfo>> = {
  teamcity: vendor(
    'JetBrains TeamCity',
    'https://www.jetbrains.com/help/teamcity/configuring-your-user-profile.html#Managing+Access+Tokens',
  ),
  truenas: vendor('TrueNAS', 'https://www.truenas.com/docs/scale/api/'),
};

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const sampleUuid = (seed: string) =>
  [8, 4, 4, 4, 12].map((length, index) => fakeHex(length, `${seed}${index}`)).join('-');

/** TeamCity access tokens: the base64url header `{"typ": "TCV2"}`, an id part, and a UUID in base64url. */
const TEAMCITY_HEADER = 'eyJ0eXAiOiAiVENWMiJ9';
const teamcityToken = (seed: string) =>
  `${TEAMCITY_HEADER}.${fakeToken('', 36, URL_SAFE, `${seed}-id`)}.${base64UrlOf(sampleUuid(seed))}`;

const truenasKey = (seed: string) => `${seed.length}-${fakeToken('', 64, undefined, seed)}`;

export const SELF_HOSTED_RULES: Readonly<Record<string, readonly SecretRule[]>> = {
  teamcity: [
    {
      id: 'teamcity-access-token',
      title: 'TeamCity access token (eyJ0eXAiOiAiVENWMiJ9.…)',
      severity: 'critical',
      keywords: [TEAMCITY_HEADER],
      pattern: new RegExp(
        `${TOKEN_START}(${TEAMCITY_HEADER}\\.[A-Za-z0-9_-]{36}\\.([A-Za-z0-9_-]{48}))(?![A-Za-z0-9_-])`,
      ),
      entropy: 3.5,
      // The last part is a UUID: a hand-made stand-in rarely decodes to one.
      validate: (secret) => UUID_TEXT.test(Buffer.from(secret.slice(-48), 'base64url').toString('latin1')),
      samples: lazySamples(() => ({
        match: [teamcityToken('teamcity-a')],
        ignore: [
          `${TEAMCITY_HEADER}.${fakeToken('', 36, URL_SAFE, 'tc-bad')}.${fakeToken('', 48, URL_SAFE, 'tc-bad')}`,
        ],
      })),
    },
  ],
  // API keys are `<key id>-<64 letters and digits>`; the JSON-RPC API takes them in `auth.login_with_api_key`.
  truenas: [
    {
      id: 'truenas-api-key',
      title: 'TrueNAS API key (<id>-…, next to login_with_api_key or a TrueNAS name)',
      severity: 'critical',
      keywords: ['login_with_api_key', 'truenas'],
      window: 'block',
      maxLength: 400,
      pattern:
        /(?:login_with_api_key|truenas)[^\r\n]{0,60}?(?:\r?\n[^\r\n]{0,120}?){0,3}?(?<![A-Za-z0-9_-])(\d{1,6}-[A-Za-z0-9]{64})(?![A-Za-z0-9_-])/i,
      entropy: 4,
      validate: (secret) => mixesDigitsAndCases(secret.slice(secret.indexOf('-') + 1)),
      samples: lazySamples(() => ({
        key: 'TRUENAS_API_KEY',
        match: [truenasKey('nas-a'), truenasKey('nas-key-b')],
        ignore: [`1-${'a1'.repeat(32)}`, `1-${fakeToken('', 64, LOWER_ALPHANUMERIC, 'nas-lower')}`],
        contexts: [
          {
            name: 'env',
            path: '.env',
            render: (v) => `TRUENAS_API_KEY=${v}\n`,
          },
          {
            name: 'JSON-RPC login',
            path: 'scripts/nas.py',
            render: (v) =>
              `ws.send(json.dumps({"id": "1", "msg": "method", "method": "auth.login_with_api_key", "params": ["${v}"]}))\n`,
          },
          {
            name: 'pretty-printed JSON-RPC login',
            path: 'docs/login.json',
            render: (v) =>
              `{\n  "msg": "method",\n  "method": "auth.login_with_api_key",\n  "params": [\n    "${v}"\n  ]\n}\n`,
          },
        ],
      })),
    },
  ],
};
