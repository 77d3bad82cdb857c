import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeToken, UPPER_ALPHANUMERIC } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'dynatrace-api-token',
    title: 'Dynatrace API token',
    prefix: 'dt0c01.',
    body: '[A-Z0-9]{24}\\.[A-Z0-9]{64}',
    severity: 'critical',
    match: () => [`${fakeToken('dt0c01.', 24, UPPER_ALPHANUMERIC)}.${fakeToken('', 64, UPPER_ALPHANUMERIC)}`],
  }),
]);
