import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeToken } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'xai-api-key',
    title: 'xAI API key',
    prefix: 'xai-',
    body: '[A-Za-z0-9]{80}',
    severity: 'critical',
    match: () => [fakeToken('xai-', 80)],
  }),
]);
