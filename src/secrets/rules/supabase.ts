import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeHex, fakeToken, URL_SAFE } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'supabase-access-token',
    title: 'Supabase personal access token',
    prefix: 'sbp_',
    // Newer tokens carry a version (sbp_v0_…).
    body: '(?:v[0-9]_)?[a-f0-9]{40}',
    severity: 'critical',
    match: () => [`sbp_${fakeHex(40)}`, `sbp_v0_${fakeHex(40)}`],
  }),
  prefixedToken({
    id: 'supabase-secret-key',
    title: 'Supabase secret API key',
    prefix: 'sb_secret_',
    body: '[A-Za-z0-9_-]{31,40}',
    severity: 'critical',
    match: () => [fakeToken('sb_secret_', 31, URL_SAFE)],
  }),
]);
