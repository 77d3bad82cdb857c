import { forRules, type VerifyProvider } from './types.js';

function bearerModelList(ruleIds: string[], provider: VerifyProvider, defaultBase: string, path: string) {
  return forRules(ruleIds, {
    provider,
    defaultBase,
    request: (secret, base) => ({
      method: 'GET',
      url: `${base}${path}`,
      headers: { authorization: `Bearer ${secret}` },
    }),
  });
}

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

  // OpenAI-compatible APIs: each lists its models at its own host, read-only and free.
  ...bearerModelList(['groq-api-key'], 'groq', 'https://api.groq.com', '/openai/v1/models'),
  ...bearerModelList(['mistral-api-key'], 'mistral', 'https://api.mistral.ai', '/v1/models'),
  ...bearerModelList(['deepseek-api-key'], 'deepseek', 'https://api.deepseek.com', '/models'),
  ...bearerModelList(['xai-api-key'], 'xai', 'https://api.x.ai', '/v1/models'),
  ...bearerModelList(
    ['together-api-key', 'together-legacy-api-key'],
    'together',
    'https://api.together.xyz',
    '/v1/models',
  ),
  ...bearerModelList(['fireworks-api-key'], 'fireworks', 'https://api.fireworks.ai', '/inference/v1/models'),
  ...bearerModelList(['cohere-api-key'], 'cohere', 'https://api.cohere.com', '/v1/models'),
  // Replicate: the token's own account.
  ...bearerModelList(['replicate-api-token'], 'replicate', 'https://api.replicate.com', '/v1/account'),
];
