import { classifyByStatus, forRules } from './types.js';

/**
 * `GET /api/v1/validate` on Datadog's US1 site: `{"valid":true}` when live. A key of another site (EU, US3, AP1…)
 * is refused there too, so a 403 says only that it is not a live US1 key: `unknown`, never `invalid`.
 */
export default forRules(['datadog-api-key', 'datadog-dd-api-key'], {
  provider: 'datadog',
  defaultBase: 'https://api.datadoghq.com',
  request: (secret, base) => ({
    method: 'GET',
    url: `${base}/api/v1/validate`,
    headers: { 'dd-api-key': secret },
  }),
  classify: (response) => {
    if (response.status === 403 || response.status === 401)
      return { status: 'unknown', reason: 'not valid on datadoghq.com; it may belong to another Datadog site' };
    return classifyByStatus(response);
  },
});
