import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeHex, fakeToken, UPPER_ALPHANUMERIC } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'postman-collection-access-token',
    title: 'Postman collection access token',
    prefix: 'PMAT-',
    body: '[A-Z0-9]{26}',
    match: () => [fakeToken('PMAT-', 26, UPPER_ALPHANUMERIC)],
  }),
  prefixedToken({
    id: 'postman-api-key',
    title: 'Postman API key',
    prefix: 'PMAK-',
    body: '[a-f0-9]{24}-[a-f0-9]{34}',
    match: () => [`PMAK-${fakeHex(24)}-${fakeHex(34)}`],
  }),
]);
