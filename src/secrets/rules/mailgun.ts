import { defineRules } from '../rule.js';
import { namedValue } from '../rule-builders.js';
import { fakeHex, lazySamples } from '../sample-tokens.js';

export default defineRules([
  {
    id: 'mailgun-api-key',
    title: 'Mailgun private API key (key-…)',
    severity: 'high',
    keywords: ['key-'],
    pattern: /(?<![A-Za-z0-9_-])(key-[0-9a-f]{32})(?![A-Za-z0-9_-])/,
    entropy: 3,
    samples: lazySamples(() => ({
      match: [`key-${fakeHex(32)}`],
      ignore: [`pubkey-${fakeHex(32)}`, `key-${'0'.repeat(32)}`],
    })),
  },
  namedValue({
    id: 'mailgun-signing-key',
    title: 'Mailgun webhook signing key',
    provider: 'mailgun',
    body: '[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}',
    key: 'MAILGUN_WEBHOOK_SIGNING_KEY',
    match: () => [`${fakeHex(32)}-${fakeHex(8)}-${fakeHex(8)}`],
  }),
]);
