import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeToken } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'linear-api-key',
    title: 'Linear API key',
    prefix: 'lin_api_',
    body: '[A-Za-z0-9]{40}',
    match: () => [fakeToken('lin_api_', 40)],
  }),
]);
