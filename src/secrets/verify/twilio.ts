import { forRules } from './types.js';

/**
 * `GET /2010-04-01/Accounts/{AccountSid}.json` with HTTP basic auth `AccountSid:AuthToken`: the account itself,
 * read-only; 401 when the token is wrong. An auth token means nothing without its account SID (`AC` + 32 hex), which
 * is not a secret and has no rule of its own: the nearest one in the same file is used, and without one nothing is
 * sent. API keys (`SK…`) are not verified: the key's secret, not its SID, is the credential, and it has no
 * recognisable shape.
 */
export default forRules(['twilio-auth-token', 'twilio-account-auth-token'], {
  provider: 'twilio',
  defaultBase: 'https://api.twilio.com',
  companionPattern: /(?<![A-Za-z0-9])(AC[0-9a-f]{32})(?![A-Za-z0-9])/,
  cannotVerify: (context) => (context.companion ? undefined : 'no account SID (AC…) next to it'),
  request: (secret, base, context) => ({
    method: 'GET',
    url: `${base}/2010-04-01/Accounts/${context.companion ?? ''}.json`,
    headers: { authorization: `Basic ${Buffer.from(`${context.companion ?? ''}:${secret}`).toString('base64')}` },
  }),
});
