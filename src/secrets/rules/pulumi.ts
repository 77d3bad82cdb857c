import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeHex } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'pulumi-access-token',
    title: 'Pulumi access token',
    prefix: 'pul-',
    body: '[a-f0-9]{40}',
    severity: 'critical',
    match: () => [`pul-${fakeHex(40)}`],
  }),
]);
