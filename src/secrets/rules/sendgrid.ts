import { defineRules } from '../rule.js';
import { fakeToken, lazySamples, URL_SAFE } from '../sample-tokens.js';

export default defineRules([
  {
    id: 'sendgrid-api-key',
    title: 'SendGrid API key (SG.…)',
    severity: 'critical',
    keywords: ['SG.'],
    pattern: /(?<![A-Za-z0-9_-])(SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])/,
    entropy: 4,
    samples: lazySamples(() => ({
      match: [`SG.${fakeToken('', 22, URL_SAFE)}.${fakeToken('', 43, URL_SAFE)}`],
      ignore: [`SG.${'x'.repeat(22)}.${'x'.repeat(43)}`],
    })),
  },
]);
