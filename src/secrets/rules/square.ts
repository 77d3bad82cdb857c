import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeToken, URL_SAFE } from '../sample-tokens.js';
import { mixesDigitsAndCases } from '../token-shape.js';

export default defineRules([
  prefixedToken({
    id: 'square-access-token',
    title: 'Square access token',
    prefix: 'sq0atp-',
    body: '[0-9A-Za-z_-]{22}',
    severity: 'critical',
    match: () => [fakeToken('sq0atp-', 22, URL_SAFE)],
  }),
  // Current access tokens (production and sandbox): EAAA and 60 more characters.
  prefixedToken({
    id: 'square-access-token-v2',
    title: 'Square access token',
    prefix: 'EAAA',
    body: '[0-9A-Za-z_-]{60}',
    severity: 'critical',
    validate: mixesDigitsAndCases,
    match: () => [fakeToken('EAAA', 60, URL_SAFE)],
  }),
  prefixedToken({
    id: 'square-oauth-secret',
    title: 'Square OAuth secret',
    prefix: 'sq0csp-',
    body: '[0-9A-Za-z_-]{43}',
    severity: 'critical',
    match: () => [fakeToken('sq0csp-', 43, URL_SAFE)],
  }),
]);
