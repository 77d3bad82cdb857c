import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeHex, fakeToken, lazySamples, URL_SAFE } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'google-api-key',
    title: 'Google API key',
    prefix: 'AIza',
    body: '[0-9A-Za-z_-]{35}',
    match: () => [fakeToken('AIza', 35, URL_SAFE)],
    ignore: () => ['AIza' + '0'.repeat(35)],
  }),
  prefixedToken({
    id: 'google-oauth-client-secret',
    title: 'Google OAuth client secret',
    prefix: 'GOCSPX-',
    body: '[A-Za-z0-9_-]{28}',
    severity: 'critical',
    match: () => [fakeToken('GOCSPX-', 28, URL_SAFE)],
  }),
  prefixedToken({
    id: 'google-oauth-access-token',
    title: 'Google OAuth access token',
    prefix: 'ya29.',
    body: '[0-9A-Za-z_-]{50,500}',
    match: () => [fakeToken('ya29.a0', 120, URL_SAFE)],
  }),
  prefixedToken({
    id: 'google-oauth-refresh-token',
    title: 'Google OAuth refresh token',
    prefix: '1//0',
    body: '[0-9A-Za-z_-]{40,300}',
    severity: 'critical',
    match: () => [fakeToken('1//0', 99, URL_SAFE)],
  }),
  {
    id: 'google-service-account-key-id',
    title: 'Google service account key (private_key_id)',
    severity: 'critical',
    keywords: ['private_key_id'],
    pattern: /\\?"private_key_id\\?"[ \t]{0,4}:[ \t]{0,4}\\?"([0-9a-f]{40})\\?"/,
    samples: lazySamples(() => ({
      match: [fakeHex(40)],
      ignore: ['0'.repeat(40)],
      contexts: [
        {
          name: 'service account file',
          path: 'keys/service-account.json',
          render: (v) =>
            JSON.stringify({ type: 'service_account', project_id: 'acme-prod', private_key_id: v }, null, 2),
        },
        {
          name: 'service account inside a JSON string',
          path: 'terraform.tfvars.json',
          render: (v) =>
            JSON.stringify({ credentials: JSON.stringify({ type: 'service_account', private_key_id: v }) }),
        },
      ],
    })),
  },
  {
    id: 'google-firebase-cloud-messaging-key',
    title: 'Firebase Cloud Messaging server key (AAAA…:APA91b…)',
    severity: 'high',
    keywords: ['APA91b'],
    pattern: /(?<![A-Za-z0-9_-])(AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{134})(?![A-Za-z0-9_-])/,
    entropy: 4,
    samples: lazySamples(() => ({
      match: [`AAAA${fakeToken('', 7, URL_SAFE)}:APA91b${fakeToken('', 134, URL_SAFE)}`],
      ignore: ['AAAA:APA91b'],
    })),
  },
]);
