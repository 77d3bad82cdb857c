import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeHex, fakeToken, URL_SAFE } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'atlassian-api-token',
    title: 'Atlassian API token',
    prefix: 'ATATT3x',
    body: '[A-Za-z0-9_=-]{180,200}',
    severity: 'critical',
    match: [`${fakeToken('ATATT3x', 178, URL_SAFE)}=${fakeHex(8).toUpperCase()}`],
  }),
]);
