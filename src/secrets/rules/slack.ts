import { defineRules } from '../rule.js';
import { fakeHex, fakeToken, lazySamples, UPPER_ALPHANUMERIC } from '../sample-tokens.js';

const DIGITS = '0123456789';
const webhookPath = () =>
  `T${fakeToken('', 9, UPPER_ALPHANUMERIC)}/B${fakeToken('', 9, UPPER_ALPHANUMERIC)}/${fakeToken('', 24)}`;

export default defineRules([
  {
    id: 'slack-bot-token',
    title: 'Slack bot token (xoxb-…)',
    severity: 'critical',
    keywords: ['xoxb-'],
    pattern: /(?<![A-Za-z0-9])(xoxb-[0-9]{10,13}-[0-9]{10,13}-[A-Za-z0-9]{24,34})(?![A-Za-z0-9])/,
    samples: lazySamples(() => ({
      match: [`xoxb-${fakeToken('', 11, DIGITS)}-${fakeToken('', 13, DIGITS)}-${fakeToken('', 24)}`],
      ignore: ['xoxb-0000000000-0000000000-xxxxxxxxxxxxxxxxxxxxxxxx', `xoxb-\${SLACK_BOT_TOKEN}`],
    })),
  },
  {
    id: 'slack-user-token',
    title: 'Slack user token (xoxp-…, xoxe-…)',
    severity: 'critical',
    // `xoxe-` with the same three numbers and 32 hex characters is the user token Slack appends to private file URLs
    // (`url_private…?t=xoxe-…`), which exported messages and logs carry.
    keywords: ['xoxp-', 'xoxe-'],
    pattern: /(?<![A-Za-z0-9])(xox[pe]-[0-9]{10,13}-[0-9]{10,13}-[0-9]{10,13}-[a-f0-9]{32})(?![A-Za-z0-9])/,
    samples: lazySamples(() => ({
      match: [
        `xoxp-${fakeToken('', 11, DIGITS)}-${fakeToken('', 12, DIGITS)}-${fakeToken('', 13, DIGITS)}-${fakeHex(32)}`,
        `xoxe-${fakeToken('', 13, DIGITS, 'xoxe')}-${fakeToken('', 13, DIGITS, 'xoxe2')}-${fakeToken('', 13, DIGITS, 'xoxe3')}-${fakeHex(32, 'xoxe')}`,
      ],
      ignore: ['xoxp-1234-5678-abcd'],
    })),
  },
  {
    id: 'slack-app-token',
    title: 'Slack app-level token (xapp-…)',
    severity: 'critical',
    keywords: ['xapp-'],
    pattern: /(?<![A-Za-z0-9])(xapp-\d-[A-Z0-9]{9,11}-\d{10,13}-[a-f0-9]{64})(?![A-Za-z0-9])/,
    samples: lazySamples(() => ({
      match: [`xapp-1-A${fakeToken('', 10, UPPER_ALPHANUMERIC)}-${fakeToken('', 13, DIGITS)}-${fakeHex(64)}`],
      ignore: ['xapp-1-A000-000-abc'],
    })),
  },
  // Bot tokens issued before 2018 had one number, not two: `xoxb-<bot user id>-<24 characters>`. Still found in old
  // Hubot and bot configs; the part after the number must mix digits and letters, so `xoxb-1234-something` is not one.
  {
    id: 'slack-legacy-bot-token',
    title: 'Slack bot token, pre-2018 format (xoxb-<id>-…)',
    severity: 'high',
    keywords: ['xoxb-'],
    pattern: /(?<![A-Za-z0-9])(xoxb-[0-9]{8,13}-[A-Za-z0-9]{24})(?![A-Za-z0-9-])/,
    entropy: 3.5,
    validate: (secret: string) => {
      const tail = secret.slice(secret.lastIndexOf('-') + 1);
      return /[0-9]/.test(tail) && /[A-Za-z]/.test(tail);
    },
    samples: lazySamples(() => ({
      match: [`xoxb-${fakeToken('', 11, DIGITS, 'slack-old-bot')}-${fakeToken('', 24, undefined, 'slack-old-bot')}`],
      ignore: ['xoxb-00000000000-xxxxxxxxxxxxxxxxxxxxxxxx', 'xoxb-12345678-abcdefghijklmnopqrstuvwx'],
    })),
  },
  {
    id: 'slack-legacy-token',
    title: 'Slack legacy or workspace token (xoxa-/xoxr-/xoxs-…)',
    severity: 'high',
    keywords: ['xoxa-', 'xoxr-', 'xoxs-', 'xoxo-'],
    pattern: /(?<![A-Za-z0-9])(xox[aros]-\d{1,13}-[0-9A-Za-z-]{10,100})(?![A-Za-z0-9-])/,
    entropy: 3,
    samples: lazySamples(() => ({
      match: [`xoxs-${fakeToken('', 12, DIGITS)}-${fakeToken('', 40)}`],
      ignore: ['xoxs-1-xxxxxxxxxxxxxxxx'],
    })),
  },
  {
    id: 'slack-config-token',
    title: 'Slack configuration token (xoxe.xox…)',
    severity: 'high',
    keywords: ['xoxe.xox', 'xoxe-'],
    pattern: /(?<![A-Za-z0-9])(xoxe(?:\.xox[bp])?-\d-[A-Z0-9a-z]{140,180})(?![A-Za-z0-9])/,
    samples: lazySamples(() => ({ match: [`xoxe.xoxp-1-${fakeToken('', 163)}`], ignore: ['xoxe.xoxp-1-short'] })),
  },
  {
    id: 'slack-webhook-url',
    title: 'Slack incoming webhook URL (hooks.slack.com/…)',
    severity: 'high',
    keywords: ['hooks.slack.com'],
    pattern:
      /((?:https?:\/\/)?(?<![\w.-])hooks\.slack\.com\/(?:services|workflows|triggers)\/T[A-Z0-9]{8,12}\/[AB][A-Z0-9]{8,12}\/[A-Za-z0-9]{18,48})/,
    samples: lazySamples(() => ({
      // Without the scheme too: a log line or a config value often carries only host and path.
      match: [`https://hooks.slack.com/services/${webhookPath()}`, `hooks.slack.com/services/${webhookPath()}`],
      ignore: [
        'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX',
        'https://hooks.slack.com/',
      ],
    })),
  },
]);
