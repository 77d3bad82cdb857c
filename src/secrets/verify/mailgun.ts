import { classifyByStatus, forRules } from './types.js';

/**
 * `GET /v3/domains` with HTTP basic auth `api:KEY`: the account's sending domains, read-only; 401 when the key is
 * revoked or unknown. Mailgun documents 403 as "valid credentials, access denied" (a key limited to other calls), so
 * 403 is `unknown`, never `invalid`. API keys are shared by both regions; `secrets.verifyEndpoints.mailgun` can still
 * send the request to https://api.eu.mailgun.net, the only other Mailgun API host.
 */
export default forRules(['mailgun-api-key'], {
  provider: 'mailgun',
  defaultBase: 'https://api.mailgun.net',
  request: (secret, base) => ({
    method: 'GET',
    url: `${base}/v3/domains?limit=1`,
    headers: { authorization: `Basic ${Buffer.from(`api:${secret}`).toString('base64')}` },
  }),
  classify: (response) =>
    response.status === 403
      ? { status: 'unknown', reason: 'HTTP 403: the key works but may not list domains' }
      : classifyByStatus(response),
});
