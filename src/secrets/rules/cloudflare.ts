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
  prefixedToken({
    id: 'cloudflare-origin-ca-key',
    title: 'Cloudflare Origin CA key',
    prefix: 'v1.0-',
    body: '[a-f0-9]{24}-[a-f0-9]{146}',
    match: [`v1.0-${fakeHex(24)}-${fakeHex(146)}`],
  }),
]);
