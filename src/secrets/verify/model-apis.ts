import { forRules } from './types.js';

/** Model APIs: listing models is read-only and costs nothing. */
export default [
  ...forRules(['openai-api-key'], {
    provider: 'openai',
    defaultBase: 'https://api.openai.com',
    request: (secret, base) => ({
      method: 'GET',
      url: `${base}/v1/models`,
      headers: { authorization: `Bearer ${secret}` },
    }),
  }),
  ...forRules(['anthropic-api-key'], {
    provider: 'anthropic',
    defaultBase: 'https://api.anthropic.com',
    request: (secret, base) => ({
      method: 'GET',
      url: `${base}/v1/models`,
      headers: { 'x-api-key': secret, 'anthropic-version': '2023-06-01' },
    }),
  }),
  ...forRules(['huggingface-access-token', 'huggingface-org-token'], {
    provider: 'huggingface',
    defaultBase: 'https://huggingface.co',
    request: (secret, base) => ({
      method: 'GET',
      url: `${base}/api/whoami-v2`,
      headers: { authorization: `Bearer ${secret}` },
    }),
  }),
];
