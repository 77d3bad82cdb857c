import { defineRules } from '../rule.js';
import { fakeHex, fakeToken, lazySamples, URL_SAFE } from '../sample-tokens.js';
import type { ProviderInfo } from './providers.js';

/**
 * An `Authorization` header with the `Token` scheme (Django REST framework, GitHub's `token …`, NetBox) or an
 * `Api-Token` one (Dynatrace and others): the same credential as a bearer token, in the schemes that rule does not read.
 */
export const AUTH_HEADER_INFO: ProviderInfo = {
  name: 'Authorization header token',
  reference: 'https://www.django-rest-framework.org/api-guide/authentication/#tokenauthentication',
  format: true,
};

export default defineRules([
  {
    id: 'auth-header-token',
    title: 'Token in an Authorization header (Authorization: Token …)',
    severity: 'high',
    keywords: ['authorization'],
    generic: true,
    gate: /["']?[ \t]{0,3}:[ \t]{0,3}["']?(?:Api-)?Token[ \t]/i,
    pattern:
      /Authorization["']?[ \t]{0,3}:[ \t]{0,3}["']?(?:Api-)?Token[ \t]{1,4}([A-Za-z0-9._~+/-]{20,200}=*)(?![A-Za-z0-9._~+/=-])/i,
    entropy: 3.3,
    validate: (secret) => /[0-9]/.test(secret) && /[A-Za-z]/.test(secret),
    samples: lazySamples(() => ({
      match: [fakeHex(40, 'drf-token'), fakeToken('', 32, URL_SAFE, 'api-token')],
      ignore: [`\${API_TOKEN}`, '<token>', 'your-token-goes-here-please'],
      contexts: [
        {
          name: 'curl',
          path: 'scripts/call.sh',
          render: (v) => `curl -H "Authorization: Token ${v}" https://api.acme.internal/v1/items\n`,
        },
        {
          name: 'http file',
          path: 'requests/items.http',
          render: (v) => `GET https://api.acme.internal/v1/items\nAuthorization: Api-Token ${v}\n`,
        },
        {
          name: 'python headers',
          path: 'client.py',
          render: (v) => `headers = {"Authorization": "Token ${v}"}\n`,
        },
      ],
    })),
  },
]);
