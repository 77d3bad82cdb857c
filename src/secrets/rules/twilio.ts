import { defineRules } from '../rule.js';
import { namedValue } from '../rule-builders.js';
import { fakeHex, lazySamples } from '../sample-tokens.js';

const sid = () => `AC${fakeHex(32, 'twilio-sid')}`;
const authToken = () => fakeHex(32, 'twilio-pair-token');

export default defineRules([
  {
    id: 'twilio-api-key',
    title: 'Twilio API key SID and secret (SK…)',
    severity: 'high',
    keywords: ['twilio'],
    pattern: /twilio[A-Za-z0-9_.-]{0,30}["']?[ \t]{0,4}(?:=|:|=>)[ \t]{0,4}["']?(SK[0-9a-fA-F]{32})(?![A-Za-z0-9])/i,
    samples: lazySamples(() => ({
      key: 'TWILIO_API_KEY',
      match: [`SK${fakeHex(32)}`],
      ignore: ['SK' + '0'.repeat(32)],
    })),
  },
  namedValue({
    id: 'twilio-auth-token',
    title: 'Twilio auth token',
    provider: 'twilio',
    body: '[0-9a-f]{32}',
    key: 'TWILIO_AUTH_TOKEN',
    severity: 'critical',
    match: () => [fakeHex(32)],
  }),
  // Twilio's quickstarts assign the account SID and the auth token to plain names (`account_sid = "AC…"`,
  // `auth_token = "…"`) after `from twilio.rest import Client`, or pass both at once (`Client("AC…", "…")`,
  // `https://AC…:…@api.twilio.com`). The SID is no secret; the 32 hex that follow it are the token.
  {
    id: 'twilio-account-auth-token',
    title: 'Twilio auth token beside its account SID (AC…)',
    severity: 'critical',
    keywords: ['twilio'],
    window: 'block',
    maxLength: 1200,
    pattern:
      /(?<![A-Za-z0-9])AC[0-9a-f]{32}(?![A-Za-z0-9])(?:\\?["'`]?[ \t]{0,4}[,:][ \t]{0,4}\\?["'`]?(?<secretPair>[0-9a-f]{32})|[^\r\n]{0,80}\r?\n(?:[^\r\n]{0,200}\r?\n){0,3}?[^\r\n]{0,60}?(?:token|auth|secret)[A-Za-z0-9_]{0,20}\\?["']?[ \t]{0,4}(?::=|=|:)[ \t]{0,4}\\?["'`]?(?<secret>[0-9a-f]{32}))(?![A-Za-z0-9])/i,
    entropy: 3,
    samples: lazySamples(() => ({
      match: [authToken()],
      ignore: ['0'.repeat(32), 'your_auth_token'],
      contexts: [
        {
          name: 'Python quickstart',
          path: 'send_sms.py',
          render: (v) =>
            `from twilio.rest import Client\n\naccount_sid = "${sid()}"\nauth_token = "${v}"\nclient = Client(account_sid, auth_token)\n`,
        },
        {
          name: 'Node client',
          path: 'src/sms.js',
          render: (v) => `const twilio = require('twilio');\nconst client = twilio('${sid()}', '${v}');\n`,
        },
        {
          name: 'basic-auth URL',
          path: 'scripts/notify.sh',
          render: (v) => `# twilio\ncurl -X POST "https://${sid()}:${v}@api.twilio.com/2010-04-01/Accounts"\n`,
        },
      ],
    })),
  },
]);
