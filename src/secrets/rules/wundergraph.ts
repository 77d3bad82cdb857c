import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeHex } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'wundergraph-cosmo-api-key',
    title: 'WunderGraph Cosmo API key',
    prefix: 'cosmo_',
    body: '[a-f0-9]{32}',
    match: () => [`cosmo_${fakeHex(32)}`],
  }),
]);
