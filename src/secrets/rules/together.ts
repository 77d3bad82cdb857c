import { defineRules } from '../rule.js';
import { namedValue, prefixedToken } from '../rule-builders.js';
import { fakeHex, fakeToken, URL_SAFE } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'together-api-key',
    title: 'Together AI API key',
    prefix: 'tgp_v1_',
    body: '[A-Za-z0-9_-]{43}',
    severity: 'critical',
    match: () => [fakeToken('tgp_v1_', 43, URL_SAFE)],
  }),
  namedValue({
    id: 'together-legacy-api-key',
    title: 'Together AI API key (64 hex)',
    provider: 'together',
    body: '[a-f0-9]{64}',
    key: 'TOGETHER_API_KEY',
    match: () => [fakeHex(64)],
  }),
]);
