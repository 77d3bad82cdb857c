import { GATES } from '../generic-gates.js';
import { defineRules, type SecretRule } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeHex, lazySamples } from '../sample-tokens.js';

const shopify = (prefix: string, id: string, title: string) =>
  prefixedToken({
    id,
    title,
    prefix,
    body: '[a-fA-F0-9]{32}',
    severity: 'critical',
    match: () => [prefix + fakeHex(32)],
  });

/**
 * Before the `shpss_` prefix (2023) an app's API secret key and a webhook's shared secret were 32 bare hex digits,
 * the same shape as the public API key (client id): only a name that says secret makes them one.
 */
const legacySharedSecret: SecretRule = {
  id: 'shopify-legacy-shared-secret',
  title: 'Shopify API secret key or webhook shared secret (unprefixed)',
  severity: 'critical',
  keywords: ['shopify'],
  gate: GATES.namedValue,
  pattern:
    /(?<![A-Za-z0-9_.-])(?<name>[A-Za-z0-9_.-]{0,30}?shopify[A-Za-z0-9_.-]{0,30}?(?:secret|shared[_.-]?key|webhook[_.-]?key)[A-Za-z0-9_.-]{0,20})(?:\\?["'])?[ \t]{0,4}(?:=|:=|:|=>)[ \t]{0,4}(?:\\?["'`])?(?<secret>[a-f0-9]{32})(?![A-Za-z0-9_-])/i,
  entropy: 3,
  samples: lazySamples(() => ({
    key: 'SHOPIFY_API_SECRET',
    match: [fakeHex(32)],
    ignore: [`\${SHOPIFY_API_SECRET}`, '0'.repeat(32)],
  })),
};

export default defineRules([
  shopify('shpat_', 'shopify-access-token', 'Shopify admin API access token'),
  shopify('shpca_', 'shopify-custom-app-token', 'Shopify custom app access token'),
  shopify('shppa_', 'shopify-private-app-token', 'Shopify private app access token'),
  shopify('shpua_', 'shopify-user-access-token', 'Shopify app user access token'),
  shopify('shpss_', 'shopify-shared-secret', 'Shopify app shared secret'),
  prefixedToken({
    id: 'shopify-partner-api-token',
    title: 'Shopify Partner API token',
    prefix: 'prtapi_',
    body: '[a-fA-F0-9]{32}',
    severity: 'critical',
    match: () => [`prtapi_${fakeHex(32)}`],
  }),
  legacySharedSecret,
]);
