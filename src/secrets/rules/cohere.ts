import { defineRules } from '../rule.js';
import { namedValue } from '../rule-builders.js';
import { fakeToken } from '../sample-tokens.js';

export default defineRules([
  namedValue({
    id: 'cohere-api-key',
    title: 'Cohere API key',
    provider: 'cohere',
    body: '[A-Za-z0-9]{40}',
    key: 'COHERE_API_KEY',
    match: () => [fakeToken('', 40)],
  }),
]);
