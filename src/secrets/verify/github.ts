import { forRules } from './types.js';

/** `GET /user` with the token: 200 live, 401 bad credentials. */
export default forRules(
  [
    'github-pat',
    'github-oauth-token',
    'github-user-to-server-token',
    'github-server-to-server-token',
    'github-fine-grained-pat',
  ],
  {
    provider: 'github',
    defaultBase: 'https://api.github.com',
    request: (secret, base) => ({
      method: 'GET',
      url: `${base}/user`,
      headers: { authorization: `Bearer ${secret}`, accept: 'application/vnd.github+json' },
    }),
  },
);
