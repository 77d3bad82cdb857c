import { defineRules } from '../rule.js';
import { namedValue, prefixedToken } from '../rule-builders.js';
import { fakeToken, URL_SAFE } from '../sample-tokens.js';
import { mixesDigitsAndCases } from '../token-shape.js';

export default defineRules([
  prefixedToken({
    validate: mixesDigitsAndCases,
    id: 'netlify-personal-token',
    title: 'Netlify personal access token',
    prefix: 'nfp_',
    body: '[A-Za-z0-9]{36,40}',
    severity: 'critical',
    match: () => [fakeToken('nfp_', 36)],
  }),
  namedValue({
    id: 'netlify-legacy-token',
    title: 'Netlify access token',
    provider: 'netlify',
    body: '[A-Za-z0-9_-]{40,46}',
    key: 'NETLIFY_AUTH_TOKEN',
    match: () => [fakeToken('', 43, URL_SAFE)],
  }),
]);
