import { forRules } from './types.js';

/** `GET /api/v4/user` with `PRIVATE-TOKEN`: 200 live, 401 invalid or revoked. */
export default forRules(['gitlab-pat'], {
  provider: 'gitlab',
  defaultBase: 'https://gitlab.com',
  request: (secret, base) => ({ method: 'GET', url: `${base}/api/v4/user`, headers: { 'private-token': secret } }),
});
