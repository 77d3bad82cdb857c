import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeHex } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'clojars-deploy-token',
    title: 'Clojars deploy token',
    prefix: 'CLOJARS_',
    body: '[a-f0-9]{60}',
    match: () => [`CLOJARS_${fakeHex(60)}`],
  }),
]);
