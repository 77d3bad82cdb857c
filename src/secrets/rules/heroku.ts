import { defineRules } from '../rule.js';
import { namedValue, prefixedToken } from '../rule-builders.js';
import { fakeHex, fakeToken, URL_SAFE } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'heroku-api-key',
    title: 'Heroku API key',
    prefix: 'HRKU-AA',
    body: '[0-9a-zA-Z_-]{58}',
    severity: 'critical',
    match: [fakeToken('HRKU-AA', 58, URL_SAFE)],
  }),
  namedValue({
    id: 'heroku-legacy-api-key',
    title: 'Heroku API key (UUID)',
    provider: 'heroku',
    body: '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}',
    key: 'HEROKU_API_KEY',
    match: [`${fakeHex(8)}-${fakeHex(4)}-4${fakeHex(3)}-9${fakeHex(3)}-${fakeHex(12)}`],
  }),
]);
