import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeHex } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'rubygems-api-key',
    title: 'RubyGems API key',
    prefix: 'rubygems_',
    body: '[a-f0-9]{48}',
    severity: 'critical',
    match: () => [`rubygems_${fakeHex(48)}`],
  }),
]);
