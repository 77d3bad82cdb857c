import { defineRules } from '../rule.js';
import { fakeHex, lazySamples } from '../sample-tokens.js';

export default defineRules([
  {
    id: 'mailchimp-api-key',
    title: 'Mailchimp API key (…-us1)',
    severity: 'high',
    keywords: ['-us'],
    pattern: /(?<![A-Za-z0-9])([0-9a-f]{32}-us\d{1,2})(?![A-Za-z0-9])/,
    entropy: 3,
    samples: lazySamples(() => ({ match: [`${fakeHex(32)}-us14`], ignore: [`${'0'.repeat(32)}-us1`] })),
  },
]);
