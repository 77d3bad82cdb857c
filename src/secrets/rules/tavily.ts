import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeToken } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'tavily-api-key',
    title: 'Tavily API key',
    prefix: 'tvly-',
    body: '(?:dev-|prod-)?[A-Za-z0-9]{32}',
    match: () => [fakeToken('tvly-', 32), fakeToken('tvly-dev-', 32)],
  }),
]);
