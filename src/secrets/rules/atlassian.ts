import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeHex, fakeToken, URL_SAFE } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'atlassian-api-token',
    title: 'Atlassian API token',
    prefix: 'ATATT3x',
    // The `=` before the 8-digit checksum may be escaped: `\\=` in .properties files, `%3D` in URLs.
    body: '(?:[A-Za-z0-9_=-]{180,200}|[A-Za-z0-9_-]{170,195}(?:\\\\=|%3[Dd])[A-Fa-f0-9]{8})',
    severity: 'critical',
    match: [
      `${fakeToken('ATATT3x', 178, URL_SAFE)}=${fakeHex(8).toUpperCase()}`,
      `${fakeToken('ATATT3x', 178, URL_SAFE)}%3D${fakeHex(8).toUpperCase()}`,
    ],
  }),
]);
