import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeToken, URL_SAFE } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'planetscale-oauth-token',
    title: 'PlanetScale OAuth token',
    prefix: 'pscale_oauth_',
    body: '[A-Za-z0-9=._-]{32,64}',
    severity: 'critical',
    match: () => [fakeToken('pscale_oauth_', 43, URL_SAFE)],
  }),
  prefixedToken({
    id: 'planetscale-api-token',
    title: 'PlanetScale API token',
    prefix: 'pscale_tkn_',
    body: '[A-Za-z0-9=._-]{32,64}',
    severity: 'critical',
    match: () => [fakeToken('pscale_tkn_', 43, URL_SAFE)],
  }),
  prefixedToken({
    id: 'planetscale-password',
    title: 'PlanetScale database password',
    prefix: 'pscale_pw_',
    body: '[A-Za-z0-9=._-]{32,64}',
    severity: 'critical',
    match: () => [fakeToken('pscale_pw_', 43, URL_SAFE)],
  }),
]);
