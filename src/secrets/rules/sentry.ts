import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { base64Of, fakeHex, fakeToken, lazySamples, URL_SAFE } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'sentry-org-auth-token',
    title: 'Sentry organization auth token',
    prefix: 'sntrys_',
    body: 'eyJ[A-Za-z0-9+/=_-]{60,400}_[A-Za-z0-9+/=_-]{40,50}',
    severity: 'critical',
    match: () => [
      `sntrys_${base64Of(JSON.stringify({ iat: 1767225600, url: 'https://sentry.io', org: 'acme' })).replace(/=+$/, '')}_${fakeToken('', 43, URL_SAFE)}`,
    ],
  }),
  prefixedToken({
    id: 'sentry-user-auth-token',
    title: 'Sentry user auth token',
    prefix: 'sntryu_',
    body: '[a-f0-9]{64}',
    severity: 'critical',
    match: () => [`sntryu_${fakeHex(64)}`],
  }),
  // A DSN only lets a client send events (front-end code ships it), so it is reported low, for the record.
  {
    id: 'sentry-dsn',
    title: 'Sentry DSN (public key, event ingestion only)',
    severity: 'low',
    keywords: ['sentry.io/'],
    pattern: /(?<![A-Za-z0-9])(https?:\/\/[0-9a-f]{32}@(?:[a-z0-9-]+\.)*sentry\.io\/[0-9]+)(?![0-9])/,
    entropy: 3,
    samples: lazySamples(() => ({
      key: 'SENTRY_DSN',
      match: [`https://${fakeHex(32)}@o4508.ingest.us.sentry.io/4508123`],
      ignore: ['https://examplePublicKey@o0.ingest.sentry.io/0', `https://${'0'.repeat(32)}@o1.ingest.sentry.io/1`],
    })),
  },
]);
