import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeToken, URL_SAFE } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'instagram-access-token',
    title: 'Instagram access token',
    prefix: 'IGQV',
    body: '[A-Za-z0-9_-]{100,400}',
    entropy: 4,
    match: () => [fakeToken('IGQVJ', 180, URL_SAFE)],
  }),
]);
