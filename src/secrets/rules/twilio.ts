import { defineRules } from '../rule.js';
import { namedValue } from '../rule-builders.js';
import { fakeHex } from '../sample-tokens.js';

export default defineRules([
  {
    id: 'twilio-api-key',
    title: 'Twilio API key SID and secret (SK…)',
    severity: 'high',
    keywords: ['twilio'],
    pattern: /twilio[A-Za-z0-9_.-]{0,30}["']?[ \t]{0,4}(?:=|:|=>)[ \t]{0,4}["']?(SK[0-9a-fA-F]{32})(?![A-Za-z0-9])/i,
    samples: { key: 'TWILIO_API_KEY', match: [`SK${fakeHex(32)}`], ignore: ['SK' + '0'.repeat(32)] },
  },
  namedValue({
    id: 'twilio-auth-token',
    title: 'Twilio auth token',
    provider: 'twilio',
    body: '[0-9a-f]{32}',
    key: 'TWILIO_AUTH_TOKEN',
    severity: 'critical',
    match: [fakeHex(32)],
  }),
]);
