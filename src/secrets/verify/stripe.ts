import { forRules } from './types.js';

/** `GET /v1/balance`: readable with any secret or restricted key that is live. */
export default forRules(['stripe-secret-key', 'stripe-restricted-key', 'stripe-test-secret-key'], {
  provider: 'stripe',
  defaultBase: 'https://api.stripe.com',
  request: (secret, base) => ({
    method: 'GET',
    url: `${base}/v1/balance`,
    headers: { authorization: `Bearer ${secret}` },
  }),
});
