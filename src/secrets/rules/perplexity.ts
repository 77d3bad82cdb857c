import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeToken } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'perplexity-api-key',
    title: 'Perplexity API key',
    prefix: 'pplx-',
    body: '[A-Za-z0-9]{48}',
    severity: 'critical',
    match: () => [fakeToken('pplx-', 48)],
  }),
]);
