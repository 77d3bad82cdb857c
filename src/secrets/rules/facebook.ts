import { defineRules } from '../rule.js';
import { namedValue, prefixedToken } from '../rule-builders.js';
import { fakeHex, fakeToken } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'facebook-access-token',
    title: 'Facebook access token',
    prefix: 'EAACEdEose0cBA',
    body: '[0-9A-Za-z]{20,300}',
    match: [fakeToken('EAACEdEose0cBA', 120)],
  }),
  namedValue({
    id: 'facebook-app-secret',
    title: 'Facebook app secret',
    provider: 'facebook',
    body: '[a-f0-9]{32}',
    key: 'FACEBOOK_APP_SECRET',
    match: [fakeHex(32)],
  }),
]);
