import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeToken, UPPER_ALPHANUMERIC } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'newrelic-user-api-key',
    title: 'New Relic user API key',
    prefix: 'NRAK-',
    body: '[A-Z0-9]{27}',
    match: [fakeToken('NRAK-', 27, UPPER_ALPHANUMERIC)],
  }),
  prefixedToken({
    id: 'newrelic-insert-key',
    title: 'New Relic insert key',
    prefix: 'NRII-',
    body: '[A-Za-z0-9_-]{32}',
    match: [fakeToken('NRII-', 32)],
  }),
]);
