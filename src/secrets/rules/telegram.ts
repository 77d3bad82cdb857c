import { defineRules } from '../rule.js';
import { fakeToken, lazySamples, URL_SAFE } from '../sample-tokens.js';

export default defineRules([
  {
    id: 'telegram-bot-token',
    title: 'Telegram bot token (…:AA…)',
    severity: 'high',
    keywords: [':AA'],
    pattern: /(?<![A-Za-z0-9])(\d{8,10}:AA[A-Za-z0-9_-]{33})(?![A-Za-z0-9_-])/,
    entropy: 3.5,
    samples: lazySamples(() => ({
      match: [`${fakeToken('', 10, '0123456789')}:AA${fakeToken('', 33, URL_SAFE)}`],
      ignore: ['123456789:AAxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'],
    })),
  },
]);
