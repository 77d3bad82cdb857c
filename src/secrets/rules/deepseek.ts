import { defineRules } from '../rule.js';
import { namedValue } from '../rule-builders.js';
import { fakeHex } from '../sample-tokens.js';

export default defineRules([
  namedValue({
    id: 'deepseek-api-key',
    title: 'DeepSeek API key',
    provider: 'deepseek',
    body: 'sk-[a-f0-9]{32}',
    key: 'DEEPSEEK_API_KEY',
    match: () => [`sk-${fakeHex(32)}`],
  }),
]);
