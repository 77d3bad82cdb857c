import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeHex } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'postman-api-key',
    title: 'Postman API key',
    prefix: 'PMAK-',
    body: '[a-f0-9]{24}-[a-f0-9]{34}',
    match: [`PMAK-${fakeHex(24)}-${fakeHex(34)}`],
  }),
]);
