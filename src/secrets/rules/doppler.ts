import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeToken, LOWER_ALPHANUMERIC } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'doppler-service-token',
    title: 'Doppler service token',
    prefix: 'dp.st.',
    body: '(?:[a-z0-9_-]{2,35}\\.)?[A-Za-z0-9]{40,44}',
    severity: 'critical',
    match: [`dp.st.prd.${fakeToken('', 43)}`],
  }),
  prefixedToken({
    id: 'doppler-personal-token',
    title: 'Doppler personal token',
    prefix: 'dp.pt.',
    body: '[A-Za-z0-9]{40,44}',
    severity: 'critical',
    match: [fakeToken('dp.pt.', 43, LOWER_ALPHANUMERIC + 'ABCDEFGHIJ')],
  }),
]);
