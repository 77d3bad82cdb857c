import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeToken } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'notion-integration-token',
    title: 'Notion integration token',
    prefix: 'ntn_',
    body: '[0-9]{9,12}[A-Za-z0-9]{33,38}',
    match: () => [`ntn_${fakeToken('', 11, '0123456789')}${fakeToken('', 35)}`],
  }),
  prefixedToken({
    id: 'notion-legacy-integration-token',
    title: 'Notion legacy integration token',
    prefix: 'secret_',
    body: '[A-Za-z0-9]{43}',
    match: () => [fakeToken('secret_', 43)],
  }),
]);
