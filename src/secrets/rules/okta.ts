import { defineRules } from '../rule.js';
import { namedValue } from '../rule-builders.js';
import { fakeToken, URL_SAFE } from '../sample-tokens.js';

export default defineRules([
  namedValue({
    id: 'okta-api-token',
    title: 'Okta API token',
    provider: 'okta',
    body: '00[A-Za-z0-9_-]{40}',
    key: 'OKTA_API_TOKEN',
    severity: 'critical',
    match: [fakeToken('00', 40, URL_SAFE)],
  }),
]);
