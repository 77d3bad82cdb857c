import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { base64UrlOf, fakeToken, URL_SAFE } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'onepassword-service-account-token',
    title: '1Password service account token',
    prefix: 'ops_eyJ',
    body: '[A-Za-z0-9+/_=-]{100,1200}',
    severity: 'critical',
    match: () => [
      `ops_${base64UrlOf(JSON.stringify({ signInAddress: 'acme.1password.com', email: 'svc@acme.internal' }))}${fakeToken('', 120, URL_SAFE)}`,
    ],
  }),
  prefixedToken({
    id: 'onepassword-secret-key',
    title: '1Password account secret key',
    prefix: 'A3-',
    // Two groupings are in circulation: 6-6-5-5-5-5 and 6-11-5-5-5 (the same 26 characters after the account id).
    body: '[A-Z0-9]{6}-(?:[A-Z0-9]{6}-[A-Z0-9]{5}|[A-Z0-9]{11})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}',
    severity: 'critical',
    entropy: 2.5,
    match: () => [
      'A3-' +
        ['6', '6', '5', '5', '5', '5']
          .map((n) => fakeToken('', Number(n), 'ABCDEFGHJKLMNPQRSTVWXYZ23456789'))
          .join('-'),
      'A3-' +
        ['6', '11', '5', '5', '5']
          .map((n) => fakeToken('', Number(n), 'ABCDEFGHJKLMNPQRSTVWXYZ23456789', `op-${n}`))
          .join('-'),
    ],
  }),
]);
