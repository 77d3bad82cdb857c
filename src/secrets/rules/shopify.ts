import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeHex } from '../sample-tokens.js';

const shopify = (prefix: string, id: string, title: string) =>
  prefixedToken({ id, title, prefix, body: '[a-fA-F0-9]{32}', severity: 'critical', match: [prefix + fakeHex(32)] });

export default defineRules([
  shopify('shpat_', 'shopify-access-token', 'Shopify admin API access token'),
  shopify('shpca_', 'shopify-custom-app-token', 'Shopify custom app access token'),
  shopify('shppa_', 'shopify-private-app-token', 'Shopify private app access token'),
  shopify('shpss_', 'shopify-shared-secret', 'Shopify app shared secret'),
]);
