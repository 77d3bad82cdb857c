import { defineRules } from '../rule.js';
import { namedValue, prefixedToken } from '../rule-builders.js';
import { fakeHex, fakeToken, URL_SAFE } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'heroku-api-key',
    title: 'Heroku API key',
    prefix: 'HRKU-',
    // Platform API tokens: 60 characters (most begin AA), or a UUID after the prefix.
    body: '(?:[0-9a-zA-Z_-]{60}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})',
    severity: 'critical',
    match: () => [
      fakeToken('HRKU-AA', 58, URL_SAFE),
      `HRKU-${fakeHex(8)}-${fakeHex(4)}-4${fakeHex(3)}-9${fakeHex(3)}-${fakeHex(12)}`,
    ],
  }),
  namedValue({
    id: 'heroku-legacy-api-key',
    title: 'Heroku API key (UUID)',
    provider: 'heroku',
    body: '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}',
    key: 'HEROKU_API_KEY',
    match: () => [`${fakeHex(8)}-${fakeHex(4)}-4${fakeHex(3)}-9${fakeHex(3)}-${fakeHex(12)}`],
  }),
]);
