import type { SecretRule } from '../rule.js';
import {
  type NamedProviderRow,
  type NamedProviderShape,
  namedProviderInfo,
  namedProviderRules,
  namedProviderShapes,
} from './named-providers.js';
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
];

// Hex keys in mixed case (`acdeFf05…`) are refused by the builder for every table's rows (`providerNamedAssignment`).
export const MORE_NAMED_RULES: Readonly<Record<string, readonly SecretRule[]>> = namedProviderRules(ROWS);

export const MORE_NAMED_SHAPES: ReadonlyMap<string, NamedProviderShape> = namedProviderShapes(ROWS);

export const MORE_NAMED_INFO: Readonly<Record<string, ProviderInfo>> = namedProviderInfo(ROWS);
