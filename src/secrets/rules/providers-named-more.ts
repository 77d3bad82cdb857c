import type { RuleEntry } from '../lazy-rule.js';
import { type NamedProviderRow, namedProviderInfo, namedProviderRules } from './named-providers.js';
import type { ProviderInfo } from './providers.js';

/**
 * More prefix-less keys, read as provider-named assignments (`meraki_api_key = …`, `SQUARESPACE_TOKEN=…`), one row
 * each in the shape of `named-providers.ts`: [file key, provider, aliases, value shape, and where the format is
 * documented: a TruffleHog detector name, or a full URL]. Formats are public facts; regexes and samples are our own.
 */
const GITLEAKS = 'https://github.com/gitleaks/gitleaks/blob/master/config/gitleaks.toml';

const ROWS: readonly NamedProviderRow[] = [
  ['adafruit', 'Adafruit IO', 'adafruit', 'alnum_-:32', 'adafruitio'],
  ['beamer', 'Beamer', 'beamer', 'alnum_+/=:44-46'],
  ['blocknative', 'Blocknative', 'blocknative', 'hex-:36'],
  ['box', 'Box', 'box', 'alnum:32'],
  ['confluent', 'Confluent', 'confluent', 'alnum+/:64'],
  ['dailyco', 'Daily', 'daily dailyco', 'hex:64'],
  ['getemail', 'GetEmail', 'getemail', 'alnum-:20'],
  // Access tokens: `live_` or `sandbox_`, then 40 characters that may hold `=`.
  ['gocardless', 'GoCardless', 'gocardless', 'alnum_=-:45-48'],
  ['impala', 'Impala', 'impala', 'alnum_:46'],
  ['interseller', 'Interseller', 'interseller', 'hex-:36'],
  ['kontent', 'Kontent.ai', 'kontent', 'hex-:36'],
  ['loginradius', 'LoginRadius', 'loginradius', 'hex-:36'],
  ['logzio', 'Logz.io', 'logz logzio', 'hex-:36'],
  ['magnetic', 'Magnetic', 'magnetic', 'hex-:36'],
  ['nftport', 'NFTPort', 'nftport', 'hex-:36'],
  ['nytimes', 'The New York Times', 'nytimes', 'alnum:32', GITLEAKS],
  ['scrapingbee', 'ScrapingBee', 'scrapingbee', 'alnum:80'],
  ['squarespace', 'Squarespace', 'squarespace', 'hex-:36'],
  ['sumologic', 'Sumo Logic', 'sumo sumologic', 'alnum:64', 'sumologickey'],
  ['telnyx', 'Telnyx', 'telnyx', 'alnum_-:58'],
  ['uptimerobot', 'UptimeRobot', 'uptimerobot', 'alnum-:34'],
  ['zendesk', 'Zendesk', 'zendesk', 'alnum_-:40', 'zendeskapi'],
  ['zenscrape', 'Zenscrape', 'zenscrape', 'hex-:36'],
  // Keys TruffleHog's detectors know that the tables lacked (the detector of each is the row's reference).
  ['aha', 'Aha!', 'aha', 'hex:64'],
  ['alchemy', 'Alchemy', 'alchemy', 'alnum_:32-36'],
  ['alegra', 'Alegra', 'alegra', 'alnum-:20'],
  ['algolia', 'Algolia', 'algolia', 'alnum:32', 'algoliaadminkey'],
  ['ipinfo', 'IPinfo', 'ipinfo', 'hex:14'],
  // Long JWT-like tokens: three dot-separated parts.
  ['lemonsqueezy', 'Lemon Squeezy', 'lemonsqueezy', 'alnum._-:864'],
  ['lexigram', 'Lexigram', 'lexigram', 'alnum:301'],
  ['moderationapi', 'Moderation API', 'moderation', 'alnum._:196', 'moderation'],
  ['monday', 'monday.com', 'monday', 'alnum._-:150-400'],
  // A 26-character key ID, a colon, then a UUID.
  ['ngc', 'NVIDIA NGC', 'ngc', 'alnum:-:63'],
  ['nozbe', 'Nozbe Teams', 'nozbe nozbeteams', 'alnum_-:81', 'nozbeteams'],
  ['opsgenie', 'Opsgenie', 'opsgenie', 'hex-:36'],
  ['paperform', 'Paperform', 'paperform', 'alnum._-:850-1000'],
  ['portainer', 'Portainer', 'portainer', 'alnum_/+=-:24-64', 'portainertoken'],
  ['postbacks', 'Postbacks', 'postbacks', 'hex-:36'],
  ['refiner', 'Refiner', 'refiner', 'hex-:36'],
  ['rentman', 'Rentman', 'rentman', 'alnum._-:280-340'],
  ['revampcrm', 'Revamp CRM', 'revamp revampcrm', 'alnum:40'],
  ['roaring', 'Roaring', 'roaring', 'alnum_-:28'],
  // UUIDs, in either case.
  ['salesmate', 'Salesmate', 'salesmate', 'alnum-:36'],
  ['saucelabs', 'Sauce Labs', 'saucelabs', 'alnum-:36'],
  ['scalr', 'Scalr', 'scalr', 'alnum._:136'],
  ['storychief', 'StoryChief', 'storychief', 'alnum._-:940-1000'],
  ['strava', 'Strava', 'strava', 'alnum:40'],
  ['surveyanyplace', 'Survey Anyplace', 'surveyanyplace', 'alnum:32'],
  ['swell', 'Swell', 'swell', 'alnum:32'],
  ['tallyfy', 'Tallyfy', 'tallyfy', 'alnum._-:985'],
  ['tokeet', 'Tokeet', 'tokeet', 'hex-:36'],
  ['viewneo', 'viewneo', 'viewneo', 'alnum._-:870-1000'],
  ['wepay', 'WePay', 'wepay', 'alnum_:62'],
  ['wrike', 'Wrike', 'wrike', 'alnum._-:335'],
  ['zeplin', 'Zeplin', 'zeplin', 'alnum.-:350-400'],
  // `sk-` and 48 letters and digits.
  ['braintrust', 'Braintrust', 'braintrust', 'alnum-:51'],
  // Four groups of three upper-case letters and digits.
  ['cashboard', 'Cashboard', 'cashboard', 'alnum-:15'],
  ['commodities', 'Commodities-API', 'commodities', 'alnum:60'],
  ['conversiontools', 'Conversion Tools', 'conversiontools', 'alnum_.:159-167'],
  // `secret_` and 16 letters and digits.
  ['convertapi', 'ConvertAPI', 'convertapi', 'alnum_:23'],
  // `pk_`, a word, `_`, then 28 letters and digits.
  ['courier', 'Courier', 'courier', 'alnum_:34-120'],
  ['customerio', 'Customer.io', 'customerio', 'alnum:20'],
  ['flightlabs', 'FlightLabs', 'flightlabs', 'alnum._-:200-400'],
  ['fmfw', 'FMFW.io', 'fmfw', 'alnum_-:32'],
  ['formio', 'Form.io', 'formio', 'alnum._-:300-400'],
  ['frontapp', 'Front', 'front frontapp', 'alnum._-:225-281', 'front'],
  ['helpcrunch', 'HelpCrunch', 'helpcrunch', 'alnum+/=-:328'],
];

// Hex keys in mixed case (`acdeFf05…`) are refused by the builder for every table's rows (`providerNamedAssignment`).
export const MORE_NAMED_RULES: Readonly<Record<string, readonly RuleEntry[]>> = namedProviderRules(ROWS);

export const MORE_NAMED_ROWS: readonly NamedProviderRow[] = ROWS;

export const MORE_NAMED_INFO: Readonly<Record<string, ProviderInfo>> = namedProviderInfo(ROWS);
