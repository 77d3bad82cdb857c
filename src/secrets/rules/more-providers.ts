import type { SecretRule } from '../rule.js';
import { prefixedToken, TOKEN_START } from '../rule-builders.js';
import { BASE64, fakeHex, fakeToken, lazySamples, UPPER_ALPHANUMERIC, URL_SAFE } from '../sample-tokens.js';
import type { ProviderInfo } from './providers.js';

/**
 * More providers of the long tail and older generations of formats already known, one entry each: who issues them,
 * where the format is documented, and the formats. Formats are public facts (the providers' docs, the open rule
 * sets of other scanners); regexes and samples are our own.
 */
interface Provider {
  readonly info: ProviderInfo;
  readonly rules: readonly SecretRule[];
}

const HEX = '[a-f0-9]';
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const uuid = (seed: string) => [8, 4, 4, 4, 12].map((length, index) => fakeHex(length, `${seed}${index}`)).join('-');
const DIGITS = '0123456789';
const mixesDigitsAndLetters = (text: string) => /[0-9]/.test(text) && /[A-Za-z]/.test(text);

const vendor = (name: string, reference: string, rules: SecretRule[]): Provider => ({
  info: { name, reference },
  rules,
});

const PROVIDERS: Record<string, Provider> = {
  twitch: vendor('Twitch', 'https://help.twitch.tv/s/article/twitch-stream-key-faq', [
    {
      id: 'twitch-stream-key',
      title: 'Twitch stream key (live_<channel id>_…)',
      severity: 'high',
      keywords: ['live_'],
      pattern: new RegExp(`${TOKEN_START}(live_[0-9]{6,12}_[A-Za-z0-9]{30})(?![A-Za-z0-9_-])`),
      entropy: 3.5,
      validate: (secret) => mixesDigitsAndLetters(secret.slice(secret.lastIndexOf('_') + 1)),
      samples: lazySamples(() => ({
        match: [`live_${fakeToken('', 9, DIGITS, 'twitch-id')}_${fakeToken('', 30, undefined, 'twitch-key')}`],
        ignore: ['live_123456789_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', 'live_stream_enabled'],
      })),
    },
  ]),
  adafruit: vendor('Adafruit IO', 'https://io.adafruit.com/api/docs/#authentication', [
    prefixedToken({
      id: 'adafruit-io-key',
      title: 'Adafruit IO key',
      prefix: 'aio_',
      body: '[A-Za-z0-9]{28}',
      entropy: 3.5,
      validate: mixesDigitsAndLetters,
      match: () => [fakeToken('aio_', 28)],
    }),
  ]),
  sidekiq: vendor('Sidekiq (Contribsys)', 'https://github.com/sidekiq/sidekiq/wiki/Commercial-FAQ', [
    {
      id: 'sidekiq-enterprise-credentials',
      title: 'Sidekiq Pro/Enterprise gem server credentials (BUNDLE_…__CONTRIBSYS__COM)',
      severity: 'high',
      keywords: ['__contribsys__com'],
      pattern:
        /BUNDLE_(?:ENTERPRISE|GEMS)__CONTRIBSYS__COM["']?[ \t]{0,4}(?:=|:)[ \t]{0,4}["']?([a-f0-9]{8}:[a-f0-9]{8})(?![A-Za-z0-9])/i,
      entropy: 2.5,
      samples: lazySamples(() => ({
        match: [`BUNDLE_ENTERPRISE__CONTRIBSYS__COM=${fakeHex(8, 'sidekiq-user')}:${fakeHex(8, 'sidekiq-pass')}`],
        ignore: [
          'BUNDLE_ENTERPRISE__CONTRIBSYS__COM=$SIDEKIQ_CREDENTIALS',
          'BUNDLE_GEMS__CONTRIBSYS__COM=00000000:00000000',
        ],
      })),
    },
  ]),
  apify: vendor('Apify', 'https://docs.apify.com/platform/integrations/api#api-token', [
    prefixedToken({
      id: 'apify-api-token',
      title: 'Apify API token',
      prefix: 'apify_api_',
      body: '[A-Za-z0-9]{36}',
      entropy: 3.5,
      validate: mixesDigitsAndLetters,
      match: () => [fakeToken('apify_api_', 36)],
    }),
  ]),
  wireguard: vendor('WireGuard', 'https://www.wireguard.com/quickstart/', [
    // A WireGuard private or preshared key is 32 bytes in base64 (43 characters and `=`); the public key is not secret.
    {
      id: 'wireguard-private-key',
      title: 'WireGuard private or preshared key (PrivateKey = …)',
      severity: 'critical',
      keywords: ['privatekey', 'presharedkey'],
      // The pattern after its keyword: `privateKey: KeyObject` and `"PrivateKey": {` in typings and API models cut
      // no window.
      gate: /[ \t]{0,4}=[ \t]{0,4}[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=/,
      pattern:
        /(?<![A-Za-z0-9_])(?:Private|Preshared)Key[ \t]{0,4}=[ \t]{0,4}([A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=)(?![A-Za-z0-9+/=])/,
      entropy: 4,
      samples: lazySamples(() => ({
        match: [`${fakeToken('', 42, BASE64, 'wg-private')}A=`],
        ignore: ["<server's private key>", '$(cat /etc/wireguard/private.key)'],
        contexts: [
          {
            name: 'wg-quick config',
            path: 'deploy/wg0.conf',
            render: (v) => `[Interface]\nPrivateKey = ${v}\nAddress = 10.8.0.2/24\n`,
          },
          {
            name: 'preshared key',
            path: 'deploy/wg0.conf',
            render: (v) => `[Peer]\nPublicKey = peer\nPresharedKey = ${v}\nAllowedIPs = 0.0.0.0/0\n`,
          },
        ],
      })),
    },
  ]),
  stackhawk: vendor('StackHawk', 'https://docs.stackhawk.com/apidocs.html#section/Authentication', [
    {
      id: 'stackhawk-api-key',
      title: 'StackHawk API key (hawk.….…)',
      severity: 'high',
      keywords: ['hawk.'],
      pattern: /(?<![A-Za-z0-9_.-])(hawk\.[A-Za-z0-9_-]{20}\.[A-Za-z0-9_-]{20})(?![A-Za-z0-9_.-])/,
      entropy: 3.5,
      validate: (secret) => mixesDigitsAndLetters(secret.slice(5)),
      samples: lazySamples(() => ({
        match: [`hawk.${fakeToken('', 20, undefined, 'hawk-id')}.${fakeToken('', 20, undefined, 'hawk-secret')}`],
        ignore: ['hawk.xxxxxxxxxxxxxxxxxxxx.xxxxxxxxxxxxxxxxxxxx'],
      })),
    },
  ]),
  courier: vendor('Courier', 'https://www.courier.com/docs/reference/auth/intro/', [
    prefixedToken({
      id: 'courier-auth-token',
      title: 'Courier auth token',
      prefix: 'pk_prod_',
      body: '[A-Z0-9]{28}',
      entropy: 3.5,
      validate: (secret) => mixesDigitsAndLetters(secret.slice(8)),
      match: () => [fakeToken('pk_prod_', 28, UPPER_ALPHANUMERIC)],
    }),
  ]),
  'dependency-track': vendor('OWASP Dependency-Track', 'https://docs.dependencytrack.org/integrations/rest-api/', [
    prefixedToken({
      id: 'dependency-track-api-key',
      title: 'Dependency-Track API key',
      prefix: 'odt_',
      body: '[A-Za-z0-9]{32,40}',
      entropy: 3.5,
      validate: mixesDigitsAndLetters,
      match: () => [fakeToken('odt_', 32)],
    }),
  ]),
  'mongodb-atlas': vendor('MongoDB Atlas', 'https://www.mongodb.com/docs/atlas/api/service-accounts-overview/', [
    prefixedToken({
      id: 'mongodb-atlas-service-account-secret',
      title: 'MongoDB Atlas service account secret',
      prefix: 'mdb_sa_sk_',
      body: '[A-Za-z0-9_-]{40}',
      severity: 'critical',
      entropy: 3.5,
      match: () => [fakeToken('mdb_sa_sk_', 40, URL_SAFE)],
    }),
  ]),
  'microsoft-teams-legacy': vendor(
    'Microsoft Teams',
    'https://learn.microsoft.com/en-us/microsoftteams/platform/webhooks-and-connectors/how-to/add-incoming-webhook',
    [
      // Teams incoming webhooks were served from outlook.office.com until 2021; the URLs kept working for years.
      {
        id: 'microsoft-teams-legacy-webhook',
        title: 'Microsoft Teams incoming webhook URL, pre-2021 host (outlook.office.com/webhook/…)',
        severity: 'high',
        keywords: ['outlook.office.com/webhook/', 'outlook.office365.com/webhook/'],
        pattern: new RegExp(
          `(https://outlook\\.office(?:365)?\\.com/webhook/${UUID}@${UUID}/IncomingWebhook/${HEX}{32}/${UUID})`,
        ),
        entropy: 3,
        samples: lazySamples(() => ({
          match: [
            `https://outlook.office.com/webhook/${uuid('teams-old1')}@${uuid('teams-old2')}/IncomingWebhook/${fakeHex(32, 'teams-old3')}/${uuid('teams-old4')}`,
          ],
          ignore: ['https://outlook.office.com/webhook/<id>@<tenant>/IncomingWebhook/<hash>/<owner>'],
        })),
      },
    ],
  ),
  'hubspot-legacy': vendor('HubSpot', 'https://developers.hubspot.com/changelog/upcoming-api-key-sunset', [
    // HubSpot API keys (retired for new use in 2022) were UUIDs passed as the `hapikey` query parameter.
    {
      id: 'hubspot-legacy-api-key',
      title: 'HubSpot API key, pre-2022 format (hapikey=<uuid>)',
      severity: 'high',
      keywords: ['hapikey'],
      pattern: new RegExp(`hapikey["']?[ \\t]{0,4}(?:=|:|=>)[ \\t]{0,4}["']?(${UUID})(?![A-Za-z0-9-])`, 'i'),
      entropy: 3,
      samples: lazySamples(() => ({
        match: [`https://api.hubapi.com/contacts/v1/lists/all/contacts/all?hapikey=${uuid('hapikey')}`],
        ignore: ['https://api.hubapi.com/contacts/v1/lists?hapikey=demo', `hapikey=\${HUBSPOT_API_KEY}`],
      })),
    },
  ]),
};

/** Each provider's rules, keyed by file key (the rules' id stem). */
export const MORE_PROVIDER_RULES: Readonly<Record<string, readonly SecretRule[]>> = Object.fromEntries(
  Object.entries(PROVIDERS).map(([key, provider]) => [key, provider.rules]),
);

export const MORE_PROVIDER_INFO: Readonly<Record<string, ProviderInfo>> = Object.fromEntries(
  Object.entries(PROVIDERS).map(([key, provider]) => [key, provider.info]),
);
