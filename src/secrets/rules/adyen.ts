import { defineRules } from '../rule.js';
import { namedValue } from '../rule-builders.js';
import { fakeToken } from '../sample-tokens.js';

export default defineRules([
  namedValue({
    id: 'adyen-api-key',
    title: 'Adyen API key',
    provider: 'adyen',
    body: 'AQE[A-Za-z0-9+/=._-]{60,240}',
    key: 'ADYEN_API_KEY',
    severity: 'critical',
    match: () => [`AQE${fakeToken('', 40)}.${fakeToken('', 40)}-${fakeToken('', 12)}`],
  }),
]);
