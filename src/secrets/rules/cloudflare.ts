import { defineRules } from '../rule.js';
import { namedValue, prefixedToken } from '../rule-builders.js';
import { fakeHex, fakeToken, URL_SAFE } from '../sample-tokens.js';

export default defineRules([
  namedValue({
    id: 'cloudflare-api-token',
    title: 'Cloudflare API token',
    provider: 'cloudflare',
    body: '[A-Za-z0-9_-]{40}',
    key: 'CLOUDFLARE_API_TOKEN',
    severity: 'critical',
    match: [fakeToken('', 40, URL_SAFE)],
  }),
  namedValue({
    id: 'cloudflare-global-api-key',
    title: 'Cloudflare global API key',
    provider: 'cloudflare',
    body: '[a-f0-9]{37}',
    key: 'CLOUDFLARE_API_KEY',
    severity: 'critical',
    match: [fakeHex(37)],
  }),
  // Cloudflare's self-identifying formats: account and user API tokens and global API keys.
  prefixedToken({
    id: 'cloudflare-account-api-token',
    title: 'Cloudflare account API token',
    prefix: 'cfat_',
    body: '[A-Za-z0-9]{40,64}',
    severity: 'critical',
    match: [fakeToken('cfat_', 48)],
  }),
  prefixedToken({
    id: 'cloudflare-user-api-token',
    title: 'Cloudflare user API token',
    prefix: 'cfut_',
    body: '[A-Za-z0-9]{40,64}',
    severity: 'critical',
    match: [fakeToken('cfut_', 48)],
  }),
  prefixedToken({
    id: 'cloudflare-api-key',
    title: 'Cloudflare global API key',
    prefix: 'cfk_',
    body: '[A-Za-z0-9]{40,64}',
    severity: 'critical',
    match: [fakeToken('cfk_', 48)],
  }),
  prefixedToken({
    id: 'cloudflare-origin-ca-key',
    title: 'Cloudflare Origin CA key',
    prefix: 'v1.0-',
    body: '[a-f0-9]{24}-[a-f0-9]{146}',
    match: [`v1.0-${fakeHex(24)}-${fakeHex(146)}`],
  }),
]);
