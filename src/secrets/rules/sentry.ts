import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { base64Of, fakeHex, fakeToken, URL_SAFE } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'sentry-org-auth-token',
    title: 'Sentry organization auth token',
    prefix: 'sntrys_',
    body: 'eyJ[A-Za-z0-9+/=_-]{60,400}_[A-Za-z0-9+/=_-]{40,50}',
    severity: 'critical',
    match: [
      `sntrys_${base64Of(JSON.stringify({ iat: 1767225600, url: 'https://sentry.io', org: 'acme' })).replace(/=+$/, '')}_${fakeToken('', 43, URL_SAFE)}`,
    ],
  }),
  prefixedToken({
    id: 'sentry-user-auth-token',
    title: 'Sentry user auth token',
    prefix: 'sntryu_',
    body: '[a-f0-9]{64}',
    severity: 'critical',
    match: [`sntryu_${fakeHex(64)}`],
  }),
]);
