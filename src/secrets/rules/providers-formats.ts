import { alphanumericRun, checkedGate } from '../gate-checks.js';
import { hitContext } from '../hit-context.js';
import type { SecretRule } from '../rule.js';
import { prefixedToken, TOKEN_START } from '../rule-builders.js';
import { BASE64, fakeHex, fakeToken, lazySamples } from '../sample-tokens.js';
import { mixesDigitsAndCases } from '../token-shape.js';
import { GITHUB_PATTERNS, type ProviderInfo } from './providers.js';

/**
 * Token formats of the long tail that announce themselves (a prefix, or a fixed shape under the provider's name), one
 * entry each: who issues them, where the format is documented, and the formats. Formats are public facts (the
 * providers' docs, GitHub's list of supported secret-scanning patterns, TruffleHog's open detector set); regexes and
 * samples are our own.
 */
interface Provider {
  readonly info: ProviderInfo;
  readonly rules: readonly SecretRule[];
}

const TRUFFLEHOG = 'https://github.com/trufflesecurity/trufflehog/tree/main/pkg/detectors/';
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const uuid = (seed: string) => [8, 4, 4, 4, 12].map((length, index) => fakeHex(length, `${seed}${index}`)).join('-');

const SUMO_WORD = /(?:^|[^A-Za-z0-9])(?:sumo(?:logic)?(?![a-z])|SUMO(?:LOGIC)?(?![A-Z])|Sumo(?:[Ll]ogic)?(?![a-z]))/;

/** An identifier in camel case (`subscriptionId`), not a random ID. */
const CAMEL_CASE = /^[a-z]+(?:[A-Z][a-z]+)+$/;

const vendor = (name: string, reference: string, rules: SecretRule[]): Provider => ({
  info: { name, reference },
  rules,
});

const PROVIDERS: Record<string, Provider> = {
  sumologic: vendor('Sumo Logic', 'https://help.sumologic.com/docs/manage/security/access-keys/', [
    // The access ID (`su` and 12 letters or digits) is half of the key pair; its secret half is the named 64-character
    // access key (see providers-named-more.ts). The ID alone names the account that a leaked key opens.
    {
      id: 'sumologic-access-id',
      title: 'Sumo Logic access ID (su…, under a Sumo-named key)',
      severity: 'medium',
      keywords: ['sumo'],
      pattern:
        /(?<![A-Za-z0-9_.-])(?<name>(?:[A-Za-z0-9_.-]{0,30}?[_.-])?[Ss][Uu][Mm][Oo][A-Za-z0-9_.-]{0,30}?)(?:\\?["'])?[ \t]{0,4}(?:=|:=|:|=>)[ \t]{0,4}(?:\\?["'`])?(?<secret>su[A-Za-z0-9]{12})(?![A-Za-z0-9_-])/,
      entropy: 2.5,
      // `sumo` must be a word of the name in one case (`sumoToken`, `SUMO_ACCESS_ID`), not `sumOfValues`.
      validate: (secret, context) =>
        /[0-9A-Z]/.test(secret) && !CAMEL_CASE.test(secret) && SUMO_WORD.test(context.name ?? ''),
      samples: lazySamples(() => ({
        key: 'SUMO_ACCESS_ID',
        match: [fakeToken('su', 12, undefined, 'sumo-id')],
        ignore: ['suXXXXXXXXXXXX', `\${SUMO_ACCESS_ID}`, 'summary', 'subscriptionId'],
      })),
    },
  ]),
  plaid: vendor('Plaid', 'https://plaid.com/docs/api/tokens/', [
    {
      id: 'plaid-access-token',
      title: 'Plaid access token (access-<environment>-<uuid>)',
      severity: 'high',
      keywords: ['access-production-', 'access-development-', 'access-sandbox-'],
      pattern: new RegExp(`${TOKEN_START}(access-(?:production|development|sandbox)-${UUID})(?![A-Za-z0-9_-])`),
      entropy: 3,
      samples: lazySamples(() => ({
        match: [`access-production-${uuid('plaid-prod')}`, `access-sandbox-${uuid('plaid-sandbox')}`],
        ignore: ['access-sandbox-<item-access-token>', 'access-production-denied'],
      })),
    },
  ]),
  photoroom: vendor('Photoroom', 'https://docs.photoroom.com/getting-started/how-can-i-get-my-api-key', [
    // `sk_pr_<key name>_<40 hex>`, and the same behind `sandbox_` for sandbox keys.
    {
      id: 'photoroom-api-key',
      title: 'Photoroom API key (sk_pr_…)',
      severity: 'high',
      keywords: ['sk_pr_'],
      pattern: new RegExp(`${TOKEN_START}((?:sandbox_)?sk_pr_[A-Za-z0-9]{1,64}_[A-Fa-f0-9]{40})(?![A-Za-z0-9_-])`),
      entropy: 3,
      samples: lazySamples(() => ({
        match: [`sk_pr_default_${fakeHex(40, 'photoroom')}`, `sandbox_sk_pr_shop_${fakeHex(40, 'photoroom-sbx')}`],
        ignore: ['sk_pr_your_key_here', `sk_pr_default_${'0'.repeat(40)}`],
      })),
    },
  ]),
  teamwork: vendor('Teamwork', `${TRUFFLEHOG}teamworkcrm`, [
    prefixedToken({
      id: 'teamwork-api-token',
      title: 'Teamwork API token',
      prefix: 'tkn.v1_',
      body: '[A-Za-z0-9+/]{60,90}={0,2}',
      entropy: 4,
      validate: mixesDigitsAndCases,
      match: () => [`${fakeToken('tkn.v1_', 71, undefined, 'teamwork')}=`],
    }),
  ]),
  segment: vendor('Segment', GITHUB_PATTERNS, [
    prefixedToken({
      id: 'segment-public-api-token',
      title: 'Segment public API token',
      prefix: 'sgp_',
      body: '[A-Za-z0-9]{64}',
      entropy: 4,
      validate: mixesDigitsAndCases,
      match: () => [fakeToken('sgp_', 64, undefined, 'segment')],
    }),
  ]),
  ionic: vendor('Ionic', GITHUB_PATTERNS, [
    prefixedToken({
      id: 'ionic-personal-access-token',
      title: 'Ionic personal access token',
      prefix: 'ion_',
      body: '[A-Za-z0-9]{42}',
      entropy: 3.5,
      validate: mixesDigitsAndCases,
      match: () => [fakeToken('ion_', 42, undefined, 'ionic')],
    }),
  ]),
  'facebook-graph': vendor('Facebook', 'https://developers.facebook.com/docs/facebook-login/guides/access-tokens/', [
    // User, page and system-user access tokens of the Graph API: `EAA`, the app's letters, then a long random body.
    {
      id: 'facebook-graph-access-token',
      title: 'Facebook Graph API access token (EAA…)',
      severity: 'high',
      keywords: ['eaa'],
      // `eaa` is in base64 data and ordinary words: a loop over what follows turns such hits down without a regex,
      // and the keyword pass itself records no other (its context: the gate's 90 letters or digits; 25,000 hits in
      // 64 MB of npm code, this rule's alone, of which a few per cent hold it).
      gate: checkedGate(
        /[A-Za-z0-9]{90}/,
        (text, after) => alphanumericRun(text, after, 90),
        hitContext([], Array(90).fill('A-Za-z0-9')),
      ),
      // Not inside base64 data (`…+EAAA…` in an embedded image): no base64 character on either side (`=` may assign it).
      pattern: /(?<![A-Za-z0-9+/_-])(EAA[A-Za-z0-9]{90,400})(?![A-Za-z0-9+/=_-])/,
      entropy: 4,
      validate: mixesDigitsAndCases,
      samples: lazySamples(() => ({
        match: [fakeToken('EAAG', 160, undefined, 'facebook-eaa')],
        ignore: [
          `EAA${'x'.repeat(120)}`,
          `EAA${'Ab1'.repeat(40)}`,
          `iVBORw0KGgo/${fakeToken('EAAA', 120, undefined, 'png-run')}+${fakeToken('', 40, BASE64, 'png-tail')}`,
        ],
      })),
    },
  ]),
  'flyio-macaroon': vendor('Fly.io', 'https://fly.io/docs/security/tokens/', [
    // Fly.io macaroon tokens (`fly tokens create`), often written behind the `FlyV1 ` authorization scheme.
    {
      id: 'flyio-macaroon-token',
      title: 'Fly.io macaroon token (fm1a_/fm1r_/fm2_…)',
      severity: 'critical',
      keywords: ['fm1a_', 'fm1r_', 'fm2_'],
      pattern: new RegExp(`${TOKEN_START}(fm(?:1[ar]|2)_[A-Za-z0-9+/]{100,2000}={0,3})(?![A-Za-z0-9+/=_-])`),
      entropy: 4,
      validate: mixesDigitsAndCases,
      samples: lazySamples(() => ({
        match: [fakeToken('fm2_', 180, BASE64, 'fly-macaroon'), fakeToken('fm1r_', 120, BASE64, 'fly-macaroon-r')],
        ignore: [`fm2_${'A'.repeat(120)}`, 'fm2_token'],
      })),
    },
  ]),
  'slack-workflow': vendor('Slack', 'https://slack.com/help/articles/360041352714-Build-a-workflow', [
    // Workflow Builder webhooks: workspace id, a numeric trigger id and a secret path part; no `B…` bot id.
    {
      id: 'slack-workflow-webhook-url',
      title: 'Slack workflow webhook URL (hooks.slack.com/triggers/…)',
      severity: 'high',
      keywords: ['hooks.slack.com/triggers/', 'hooks.slack.com/workflows/'],
      pattern:
        /((?:https?:\/\/)?(?<![\w.-])hooks\.slack\.com\/(?:triggers|workflows)\/T[A-Z0-9]{8,12}\/(?:A[A-Z0-9]{8,12}\/)?[0-9]{8,20}\/[A-Za-z0-9]{20,48})(?![A-Za-z0-9])/,
      entropy: 3,
      samples: lazySamples(() => ({
        match: [
          `https://hooks.slack.com/triggers/T0${fakeToken('', 8, 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789', 'slack-t')}/${fakeToken('', 13, '0123456789', 'slack-n')}/${fakeHex(32, 'slack-trig')}`,
        ],
        ignore: ['https://hooks.slack.com/triggers/T00000000/0000000000000/XXXXXXXXXXXXXXXXXXXXXXXX'],
      })),
    },
  ]),
};

/** Each provider's rules, keyed by file key (the rules' id stem). */
export const FORMAT_PROVIDER_RULES: Readonly<Record<string, readonly SecretRule[]>> = Object.fromEntries(
  Object.entries(PROVIDERS).map(([key, provider]) => [key, provider.rules]),
);

export const FORMAT_PROVIDER_INFO: Readonly<Record<string, ProviderInfo>> = Object.fromEntries(
  Object.entries(PROVIDERS).map(([key, provider]) => [key, provider.info]),
);
