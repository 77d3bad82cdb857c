import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeToken, URL_SAFE } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'figma-pat',
    title: 'Figma personal access token',
    prefix: 'figd_',
    body: '[A-Za-z0-9_-]{40,60}',
    match: () => [fakeToken('figd_', 40, URL_SAFE)],
  }),
]);
