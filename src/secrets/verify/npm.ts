import { forRules } from './types.js';

/** `GET /-/whoami`: 200 with the user name when the token is live, 401 otherwise. */
export default forRules(['npm-access-token'], {
  provider: 'npm',
  defaultBase: 'https://registry.npmjs.org',
  request: (secret, base) => ({
    method: 'GET',
    url: `${base}/-/whoami`,
    headers: { authorization: `Bearer ${secret}` },
  }),
});
