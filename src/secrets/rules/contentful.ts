import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeToken, URL_SAFE } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'contentful-pat',
    title: 'Contentful personal access token',
    prefix: 'CFPAT-',
    body: '[A-Za-z0-9_-]{43}',
    match: () => [fakeToken('CFPAT-', 43, URL_SAFE)],
  }),
]);
