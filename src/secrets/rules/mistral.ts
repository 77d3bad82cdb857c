import { defineRules } from '../rule.js';
import { namedValue } from '../rule-builders.js';
import { fakeToken } from '../sample-tokens.js';

export default defineRules([
  namedValue({
    id: 'mistral-api-key',
    title: 'Mistral AI API key',
    provider: 'mistral',
    body: '[A-Za-z0-9]{32}',
    key: 'MISTRAL_API_KEY',
    match: () => [fakeToken('', 32)],
  }),
]);
