import { forRules } from './types.js';

/**
 * `GET /v3/domains` with HTTP basic auth `api:KEY`: the account's sending domains, read-only; 401 when the key is
 * revoked or unknown. Accounts in the EU region live at https://api.eu.mailgun.net (config
 * `secrets.verifyEndpoints.mailgun`): a US-region request for an EU key says 401, so the region must be right.
 */
export default forRules(['mailgun-api-key'], {
  provider: 'mailgun',
  defaultBase: 'https://api.mailgun.net',
  request: (secret, base) => ({
    method: 'GET',
    url: `${base}/v3/domains?limit=1`,
    headers: { authorization: `Basic ${Buffer.from(`api:${secret}`).toString('base64')}` },
  }),
});
