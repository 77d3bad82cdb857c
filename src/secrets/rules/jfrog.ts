import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { base64Of, fakeToken } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'jfrog-api-key',
    title: 'JFrog Artifactory API key',
    prefix: 'AKCp',
    body: '[A-Za-z0-9]{69}',
    severity: 'critical',
    match: () => [fakeToken('AKCp', 69)],
  }),
  // Identity and reference tokens are base64 of `reftkn:01:<expiry>:<random>`.
  prefixedToken({
    id: 'jfrog-identity-token',
    title: 'JFrog identity / reference token',
    prefix: 'cmVmdGtuOjAxOj',
    body: '[A-Za-z0-9+/]{40,100}={0,2}',
    severity: 'critical',
    match: () => [base64Of(`reftkn:01:1798761600:${fakeToken('', 33)}`)],
  }),
]);
