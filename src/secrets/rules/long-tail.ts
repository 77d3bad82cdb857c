import type { SecretRule } from '../rule.js';
import { namedValue, prefixedToken } from '../rule-builders.js';
import { fakeHex, fakeToken, LOWER_ALPHANUMERIC, lazySamples, UPPER_ALPHANUMERIC, URL_SAFE } from '../sample-tokens.js';
import { GITHUB_PATTERNS, type ProviderInfo } from './providers.js';

/**
 * Providers whose tokens announce themselves with a prefix of their own, one entry each: who issues them, where the
 * format is documented, and the formats. Formats are public facts (the providers' docs, GitHub's list of supported
 * secret-scanning patterns, the open rule sets of gitleaks and TruffleHog); regexes and samples are our own.
 */
interface LongTailProvider {
  readonly info: ProviderInfo;
  readonly rules: readonly SecretRule[];
}

const uuid = (seed: string) => [8, 4, 4, 4, 12].map((length, index) => fakeHex(length, `${seed}${index}`)).join('-');
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const HEX = '[a-f0-9]';
const TRUFFLEHOG = 'https://github.com/trufflesecurity/trufflehog/tree/main/pkg/detectors/';
const GITLEAKS = 'https://github.com/gitleaks/gitleaks/blob/master/config/gitleaks.toml';

const vendor = (name: string, reference: string, rules: SecretRule[]): LongTailProvider => ({
  info: { name, reference },
  rules,
});

const PROVIDERS: Record<string, LongTailProvider> = {
  sourcegraph: vendor('Sourcegraph', 'https://sourcegraph.com/docs/cli/how-tos/creating_an_access_token', [
    prefixedToken({
      id: 'sourcegraph-access-token',
      title: 'Sourcegraph access token',
      prefix: 'sgp_',
      // Issued in lower case; hex digits in either case are the same token (copied through tools that upper-case).
      body: '(?:(?:[a-fA-F0-9]{16}|local)_)?[a-fA-F0-9]{40}',
      severity: 'critical',
      match: () => [
        `sgp_${fakeHex(16)}_${fakeHex(40)}`,
        `sgp_local_${fakeHex(40)}`,
        `sgp_${fakeHex(40)}`,
        `sgp_${fakeHex(40, 'sourcegraph-upper').toUpperCase()}`,
      ],
    }),
    prefixedToken({
      id: 'sourcegraph-cody-gateway-key',
      title: 'Sourcegraph Cody Gateway key',
      prefix: 'slk_',
      body: `${HEX}{64}`,
      match: () => [`slk_${fakeHex(64)}`],
    }),
    namedValue({
      id: 'sourcegraph-legacy-token',
      title: 'Sourcegraph access token, pre-5.1 format (40 hex, under a Sourcegraph-named key)',
      provider: 'sourcegraph',
      body: `${HEX}{40}`,
      key: 'SOURCEGRAPH_TOKEN',
      match: () => [fakeHex(40)],
    }),
  ]),
  buildkite: vendor('Buildkite', 'https://buildkite.com/docs/apis/managing-api-tokens', [
    prefixedToken({
      id: 'buildkite-api-token',
      title: 'Buildkite API access token',
      prefix: 'bkua_',
      body: '[a-z0-9]{40}',
      match: () => [fakeToken('bkua_', 40, LOWER_ALPHANUMERIC)],
    }),
  ]),
  circleci: vendor('CircleCI', GITHUB_PATTERNS, [
    prefixedToken({
      id: 'circleci-personal-token',
      title: 'CircleCI personal API token',
      prefix: 'CCIPAT_',
      body: `[A-Za-z0-9]{22}_${HEX}{40}`,
      match: () => [`${fakeToken('CCIPAT_', 22)}_${fakeHex(40)}`],
    }),
  ]),
  flutterwave: vendor('Flutterwave', 'https://developer.flutterwave.com/docs/api-keys', [
    prefixedToken({
      id: 'flutterwave-secret-key',
      title: 'Flutterwave secret key',
      prefix: 'FLWSECK',
      body: '(?:_TEST)?-[a-h0-9]{32}-X',
      severity: 'critical',
      match: () => [`FLWSECK-${fakeHex(32)}-X`, `FLWSECK_TEST-${fakeHex(32)}-X`],
    }),
  ]),
  frameio: vendor('Frame.io', GITHUB_PATTERNS, [
    prefixedToken({
      id: 'frameio-developer-token',
      title: 'Frame.io developer token',
      prefix: 'fio-u-',
      body: '[A-Za-z0-9_=-]{64}',
      match: () => [fakeToken('fio-u-', 64, URL_SAFE)],
    }),
  ]),
  hubspot: vendor('HubSpot', 'https://developers.hubspot.com/docs/api/private-apps', [
    prefixedToken({
      id: 'hubspot-private-app-token',
      title: 'HubSpot private app token',
      prefix: 'pat-',
      body: `(?:na|eu|ap)[12]-${UUID}`,
      severity: 'critical',
      match: () => [`pat-na1-${uuid('hubspot')}`, `pat-eu1-${uuid('hubspot-eu')}`],
    }),
  ]),
  langsmith: vendor(
    'LangSmith',
    'https://docs.smith.langchain.com/administration/how_to_guides/organization_management/create_account_api_key',
    [
      prefixedToken({
        id: 'langsmith-api-key',
        title: 'LangSmith API key',
        prefix: 'lsv2_',
        body: `(?:pt|sk)_${HEX}{32}_${HEX}{10}`,
        match: () => [`lsv2_pt_${fakeHex(32)}_${fakeHex(10)}`, `lsv2_sk_${fakeHex(32)}_${fakeHex(10)}`],
      }),
    ],
  ),
  nvidia: vendor('NVIDIA', `${TRUFFLEHOG}nvapi`, [
    prefixedToken({
      id: 'nvidia-api-key',
      title: 'NVIDIA API key',
      prefix: 'nvapi-',
      body: '[A-Za-z0-9_-]{64}',
      match: () => [fakeToken('nvapi-', 64, URL_SAFE)],
    }),
  ]),
  openrouter: vendor('OpenRouter', 'https://openrouter.ai/docs/api-reference/authentication', [
    prefixedToken({
      id: 'openrouter-api-key',
      title: 'OpenRouter API key',
      prefix: 'sk-or-v1-',
      body: `${HEX}{64}`,
      match: () => [`sk-or-v1-${fakeHex(64)}`],
    }),
  ]),
  pagarme: vendor('Pagar.me', `${TRUFFLEHOG}pagarme`, [
    prefixedToken({
      id: 'pagarme-api-key',
      title: 'Pagar.me live API key',
      prefix: 'ak_live_',
      body: '[A-Za-z0-9]{30}',
      match: () => [fakeToken('ak_live_', 30)],
    }),
  ]),
  pinecone: vendor('Pinecone', 'https://docs.pinecone.io/guides/projects/manage-api-keys', [
    prefixedToken({
      id: 'pinecone-api-key',
      title: 'Pinecone API key',
      prefix: 'pcsk_',
      body: '[A-Za-z0-9]{5,6}_[A-Za-z0-9]{63}',
      match: () => [`${fakeToken('pcsk_', 5)}_${fakeToken('', 63)}`],
    }),
  ]),
  prefect: vendor('Prefect', 'https://docs.prefect.io/v3/manage/cloud/manage-users/api-keys', [
    prefixedToken({
      id: 'prefect-api-key',
      title: 'Prefect Cloud API key',
      prefix: 'pnu_',
      body: '[A-Za-z0-9]{36}',
      match: () => [fakeToken('pnu_', 36)],
    }),
  ]),
  readme: vendor('ReadMe', GITLEAKS, [
    prefixedToken({
      id: 'readme-api-key',
      title: 'ReadMe API key',
      prefix: 'rdme_',
      body: '[a-z0-9]{70}',
      match: () => [fakeToken('rdme_', 70, LOWER_ALPHANUMERIC)],
    }),
  ]),
  rootly: vendor('Rootly', `${TRUFFLEHOG}rootly`, [
    prefixedToken({
      id: 'rootly-api-key',
      title: 'Rootly API key',
      prefix: 'rootly_',
      body: `${HEX}{64}`,
      match: () => [`rootly_${fakeHex(64)}`],
    }),
  ]),
  tailscale: vendor('Tailscale', 'https://tailscale.com/kb/1277/key-prefixes', [
    prefixedToken({
      id: 'tailscale-key',
      title: 'Tailscale auth, API or OAuth key',
      prefix: 'tskey-',
      body: '[a-z]{3,8}-[A-Za-z0-9]{8,24}-[A-Za-z0-9]{20,60}',
      severity: 'critical',
      match: () => [
        `tskey-auth-${fakeToken('', 17)}-${fakeToken('', 33)}`,
        `tskey-api-${fakeToken('', 12)}-${fakeToken('', 28)}`,
      ],
    }),
  ]),
  typeform: vendor('Typeform', GITHUB_PATTERNS, [
    prefixedToken({
      id: 'typeform-personal-token',
      title: 'Typeform personal access token',
      prefix: 'tfp_',
      body: '[A-Za-z0-9_]{40,59}',
      match: () => [fakeToken('tfp_', 44)],
    }),
  ]),
  ubidots: vendor('Ubidots', GITHUB_PATTERNS, [
    prefixedToken({
      id: 'ubidots-token',
      title: 'Ubidots token',
      prefix: 'BBFF-',
      body: '[A-Za-z0-9]{30}',
      match: () => [fakeToken('BBFF-', 30)],
    }),
  ]),
  bannerbear: vendor('Bannerbear', `${TRUFFLEHOG}bannerbear`, [
    prefixedToken({
      id: 'bannerbear-api-key',
      title: 'Bannerbear API key',
      prefix: 'bb_',
      body: `(?:pr|ma)_${HEX}{30}`,
      match: () => [`bb_pr_${fakeHex(30)}`, `bb_ma_${fakeHex(30)}`],
    }),
  ]),
  fleetbase: vendor('Fleetbase', `${TRUFFLEHOG}fleetbase`, [
    prefixedToken({
      id: 'fleetbase-api-key',
      title: 'Fleetbase live API key',
      prefix: 'flb_live_',
      body: '[A-Za-z0-9]{20}',
      match: () => [fakeToken('flb_live_', 20)],
    }),
  ]),
  flexport: vendor('Flexport', GITHUB_PATTERNS, [
    prefixedToken({
      id: 'flexport-api-key',
      title: 'Flexport API key',
      prefix: 'shltm_',
      body: '[A-Za-z0-9_-]{40}',
      match: () => [fakeToken('shltm_', 40, URL_SAFE)],
    }),
  ]),
  ramp: vendor('Ramp', `${TRUFFLEHOG}ramp`, [
    prefixedToken({
      id: 'ramp-client-secret',
      title: 'Ramp client secret',
      prefix: 'ramp_sec_',
      body: '[A-Za-z0-9]{48}',
      severity: 'critical',
      match: () => [fakeToken('ramp_sec_', 48)],
    }),
  ]),
  salad: vendor('SaladCloud', `${TRUFFLEHOG}saladcloudapikey`, [
    prefixedToken({
      id: 'salad-cloud-api-key',
      title: 'SaladCloud API key',
      prefix: 'salad_cloud_',
      body: '[A-Za-z0-9]{1,7}_[A-Za-z0-9]{7,235}',
      match: () => [`salad_cloud_user_${fakeToken('', 54)}`],
    }),
  ]),
  trufflehog: vendor('TruffleHog Enterprise', `${TRUFFLEHOG}trufflehogenterprise`, [
    prefixedToken({
      id: 'trufflehog-enterprise-secret',
      title: 'TruffleHog Enterprise API secret',
      prefix: 'thog-secret-',
      body: `${HEX}{32}`,
      match: () => [`thog-secret-${fakeHex(32)}`],
    }),
  ]),
  robinhood: vendor('Robinhood Crypto', `${TRUFFLEHOG}robinhoodcrypto`, [
    prefixedToken({
      id: 'robinhood-crypto-api-key',
      title: 'Robinhood Crypto API key',
      prefix: 'rh-api-',
      body: UUID,
      match: () => [`rh-api-${uuid('robinhood')}`],
    }),
  ]),
  easypost: vendor('EasyPost', GITLEAKS, [
    prefixedToken({
      id: 'easypost-api-key',
      title: 'EasyPost production API key',
      prefix: 'EZAK',
      body: '[A-Za-z0-9]{54}',
      match: () => [fakeToken('EZAK', 54)],
    }),
    prefixedToken({
      id: 'easypost-test-api-key',
      title: 'EasyPost test API key',
      prefix: 'EZTK',
      body: '[A-Za-z0-9]{54}',
      severity: 'low',
      match: () => [fakeToken('EZTK', 54)],
    }),
  ]),
  adobe: vendor('Adobe', GITLEAKS, [
    prefixedToken({
      id: 'adobe-client-secret',
      title: 'Adobe client secret',
      prefix: 'p8e-',
      body: '[A-Za-z0-9]{32}',
      match: () => [fakeToken('p8e-', 32)],
    }),
  ]),
  clickhouse: vendor('ClickHouse Cloud', GITLEAKS, [
    prefixedToken({
      id: 'clickhouse-cloud-secret-key',
      title: 'ClickHouse Cloud API secret key',
      prefix: '4b1d',
      body: '[A-Za-z0-9]{38}',
      match: () => [fakeToken('4b1d', 38)],
    }),
  ]),
  duffel: vendor('Duffel', GITLEAKS, [
    prefixedToken({
      id: 'duffel-api-token',
      title: 'Duffel API token',
      prefix: 'duffel_',
      body: '(?:test|live)_[A-Za-z0-9_=-]{43}',
      match: () => [fakeToken('duffel_live_', 43, URL_SAFE)],
    }),
  ]),
  infracost: vendor('Infracost', GITLEAKS, [
    prefixedToken({
      id: 'infracost-api-token',
      title: 'Infracost API token',
      prefix: 'ico-',
      body: '[A-Za-z0-9]{32}',
      match: () => [fakeToken('ico-', 32)],
    }),
  ]),
  intra42: vendor('42 Intra', GITLEAKS, [
    prefixedToken({
      id: 'intra42-client-secret',
      title: '42 Intra client secret',
      prefix: 's-s4t2',
      body: `(?:ud|af)-${HEX}{64}`,
      match: () => [`s-s4t2ud-${fakeHex(64)}`],
    }),
  ]),
  maxmind: vendor('MaxMind', 'https://dev.maxmind.com/license-key-format', [
    {
      id: 'maxmind-license-key',
      title: 'MaxMind license key (…_mmk)',
      severity: 'high',
      keywords: ['_mmk'],
      pattern: /(?<![A-Za-z0-9_])([A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk)(?![A-Za-z0-9_])/,
      entropy: 3,
      samples: lazySamples(() => ({
        match: [`${fakeToken('', 6)}_${fakeToken('', 29)}_mmk`],
        ignore: [`xxxxxx_${'x'.repeat(29)}_mmk`],
      })),
    },
  ]),
  microsoft: vendor('Microsoft Teams', GITLEAKS, [
    {
      id: 'microsoft-teams-webhook',
      title: 'Microsoft Teams incoming webhook URL',
      severity: 'high',
      keywords: ['webhook.office.com/webhookb2/'],
      pattern: new RegExp(
        `(https://[a-z0-9-]+\\.webhook\\.office\\.com/webhookb2/${UUID}@${UUID}/IncomingWebhook/${HEX}{32}/${UUID})`,
      ),
      entropy: 3,
      samples: lazySamples(() => ({
        match: [
          `https://acme.webhook.office.com/webhookb2/${uuid('teams1')}@${uuid('teams2')}/IncomingWebhook/${fakeHex(32)}/${uuid('teams3')}`,
        ],
        ignore: ['https://acme.webhook.office.com/webhookb2/<id>@<tenant>/IncomingWebhook/<hash>/<owner>'],
      })),
    },
  ]),
  octopus: vendor('Octopus Deploy', 'https://octopus.com/docs/octopus-rest-api/how-to-create-an-api-key', [
    prefixedToken({
      id: 'octopus-deploy-api-key',
      title: 'Octopus Deploy API key',
      prefix: 'API-',
      body: '[A-Z0-9]{26,32}',
      entropy: 3.5,
      validate: (secret) => /[0-9]/.test(secret.slice(4)) && /[A-Z]/.test(secret.slice(4)),
      match: () => [fakeToken('API-', 27, UPPER_ALPHANUMERIC)],
      ignore: () => ['API-ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'API-VERSION-DEPRECATED-IN-FAVOUR'],
    }),
  ]),
  openshift: vendor(
    'Red Hat OpenShift',
    'https://docs.redhat.com/en/documentation/openshift_container_platform/4.16/html/authentication_and_authorization/managing-oauth-access-tokens',
    [
      prefixedToken({
        id: 'openshift-user-token',
        title: 'OpenShift user token',
        prefix: 'sha256~',
        body: '[A-Za-z0-9_-]{43}',
        entropy: 3.5,
        match: () => [fakeToken('sha256~', 43, URL_SAFE)],
      }),
    ],
  ),
  scalingo: vendor('Scalingo', GITLEAKS, [
    prefixedToken({
      id: 'scalingo-api-token',
      title: 'Scalingo API token',
      prefix: 'tk-us-',
      body: '[A-Za-z0-9_-]{48}',
      match: () => [fakeToken('tk-us-', 48, URL_SAFE)],
    }),
  ]),
  settlemint: vendor('SettleMint', GITLEAKS, [
    prefixedToken({
      id: 'settlemint-access-token',
      title: 'SettleMint access token',
      prefix: 'sm_',
      body: '(?:pat|aat|sat)_[A-Za-z0-9]{16}',
      match: () => [fakeToken('sm_pat_', 16), fakeToken('sm_sat_', 16)],
    }),
  ]),
  shippo: vendor('Shippo', GITLEAKS, [
    prefixedToken({
      id: 'shippo-api-token',
      title: 'Shippo API token',
      prefix: 'shippo_',
      body: `(?:live|test)_${HEX}{40}`,
      match: () => [`shippo_live_${fakeHex(40)}`],
    }),
  ]),
  harness: vendor('Harness', 'https://developer.harness.io/docs/platform/automation/api/add-and-manage-api-keys', [
    {
      id: 'harness-api-key',
      title: 'Harness personal or service account token (pat.…/sat.…)',
      severity: 'high',
      keywords: ['pat.', 'sat.'],
      pattern: /(?<![A-Za-z0-9_.-])((?:pat|sat)\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20})(?![A-Za-z0-9_-])/,
      entropy: 3.5,
      samples: lazySamples(() => ({
        match: [`pat.${fakeToken('', 22, URL_SAFE)}.${fakeToken('', 24)}.${fakeToken('', 20)}`],
        ignore: ['pat.xxxxxxxxxxxxxxxxxxxxxx.xxxxxxxxxxxxxxxxxxxxxxxx.xxxxxxxxxxxxxxxxxxxx'],
      })),
    },
  ]),
  authress: vendor('Authress', GITLEAKS, [
    {
      id: 'authress-access-key',
      title: 'Authress service client access key',
      severity: 'high',
      keywords: ['.acc_', '.acc-'],
      pattern:
        /(?<![A-Za-z0-9_-])((?:sc|ext|scauth|authress)_[a-z0-9]{5,30}\.[a-z0-9]{4,6}\.acc[_-][a-z0-9-]{10,32}\.[a-z0-9+/_=-]{30,120})(?![A-Za-z0-9+/_=-])/i,
      entropy: 3.5,
      samples: lazySamples(() => ({
        match: [
          `sc_${fakeToken('', 12, LOWER_ALPHANUMERIC)}.${fakeToken('', 5, LOWER_ALPHANUMERIC)}.acc_${fakeToken('', 20, LOWER_ALPHANUMERIC)}.${fakeToken('', 60, URL_SAFE)}`,
        ],
        ignore: ['sc_example.abcd.acc_xxxxxxxxxx.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'],
      })),
    },
  ]),
};

/** Each long-tail provider's rules, keyed by file key (the rules' id stem). */
export const LONG_TAIL_RULES: Readonly<Record<string, readonly SecretRule[]>> = Object.fromEntries(
  Object.entries(PROVIDERS).map(([key, provider]) => [key, provider.rules]),
);

export const LONG_TAIL_INFO: Readonly<Record<string, ProviderInfo>> = Object.fromEntries(
  Object.entries(PROVIDERS).map(([key, provider]) => [key, provider.info]),
);
