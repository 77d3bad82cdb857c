import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeHex } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'digitalocean-pat',
    title: 'DigitalOcean personal access token',
    prefix: 'dop_v1_',
    body: '[a-f0-9]{64}',
    severity: 'critical',
    match: () => [`dop_v1_${fakeHex(64)}`],
  }),
  prefixedToken({
    id: 'digitalocean-oauth-token',
    title: 'DigitalOcean OAuth token',
    prefix: 'doo_v1_',
    body: '[a-f0-9]{64}',
    match: () => [`doo_v1_${fakeHex(64)}`],
  }),
  prefixedToken({
    id: 'digitalocean-refresh-token',
    title: 'DigitalOcean refresh token',
    prefix: 'dor_v1_',
    body: '[a-f0-9]{64}',
    match: () => [`dor_v1_${fakeHex(64)}`],
  }),
]);
