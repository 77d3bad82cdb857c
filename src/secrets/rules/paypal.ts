import { defineRules } from '../rule.js';
import { namedValue, prefixedToken } from '../rule-builders.js';
import { fakeHex, fakeToken, LOWER_ALPHANUMERIC, URL_SAFE } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'paypal-braintree-production-access-token',
    title: 'PayPal Braintree production access token',
    prefix: 'access_token$production$',
    body: '[a-z0-9]{16}\\$[a-f0-9]{32}',
    severity: 'critical',
    match: () => [`access_token$production$${fakeToken('', 16, LOWER_ALPHANUMERIC)}$${fakeHex(32)}`],
  }),
  prefixedToken({
    id: 'paypal-braintree-sandbox-access-token',
    title: 'PayPal Braintree sandbox access token',
    prefix: 'access_token$sandbox$',
    body: '[a-z0-9]{16}\\$[a-f0-9]{32}',
    severity: 'low',
    match: () => [`access_token$sandbox$${fakeToken('', 16, LOWER_ALPHANUMERIC)}$${fakeHex(32)}`],
  }),
  namedValue({
    id: 'paypal-client-secret',
    title: 'PayPal REST client secret',
    provider: 'paypal',
    body: 'E[A-Za-z0-9_-]{79}',
    key: 'PAYPAL_CLIENT_SECRET',
    match: () => [fakeToken('E', 79, URL_SAFE)],
  }),
]);
