import { defineRules } from '../rule.js';
import { namedValue } from '../rule-builders.js';
import { fakeHex } from '../sample-tokens.js';

export default defineRules([
  namedValue({
    id: 'mailjet-api-key',
    title: 'Mailjet API key or secret',
    provider: 'mailjet',
    body: '[a-f0-9]{32}',
    key: 'MAILJET_API_SECRET',
    match: () => [fakeHex(32)],
  }),
]);
