import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeToken, URL_SAFE } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'llama-cloud-api-key',
    title: 'LlamaIndex / LlamaCloud API key',
    prefix: 'llx-',
    body: '[A-Za-z0-9_-]{48}',
    match: () => [fakeToken('llx-', 48, URL_SAFE)],
  }),
]);
