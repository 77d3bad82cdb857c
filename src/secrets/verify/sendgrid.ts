import { forRules } from './types.js';

/** `GET /v3/scopes`: the key's own scopes, 200 when live, 401 when revoked or unknown. Read-only. */
export default forRules(['sendgrid-api-key'], {
  provider: 'sendgrid',
  defaultBase: 'https://api.sendgrid.com',
  request: (secret, base) => ({
    method: 'GET',
    url: `${base}/v3/scopes`,
    headers: { authorization: `Bearer ${secret}` },
  }),
});
