import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeToken } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'groq-api-key',
    title: 'Groq API key',
    prefix: 'gsk_',
    body: '[A-Za-z0-9]{52}',
    severity: 'critical',
    match: () => [fakeToken('gsk_', 52)],
    // A token ending in a typed count-down is a stand-in.
    ignore: () => [`${fakeToken('gsk_', 46)}654321`],
  }),
]);
