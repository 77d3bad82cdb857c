import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeToken } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'replicate-api-token',
    title: 'Replicate API token',
    prefix: 'r8_',
    body: '[A-Za-z0-9]{37}',
    severity: 'critical',
    match: () => [fakeToken('r8_', 37)],
  }),
]);
