import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeToken, URL_SAFE } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'flyio-access-token',
    title: 'Fly.io access token',
    prefix: 'fo1_',
    body: '[A-Za-z0-9_-]{43}',
    severity: 'critical',
    match: () => [fakeToken('fo1_', 43, URL_SAFE)],
  }),
]);
