import { defineRules } from '../rule.js';
import { fakeToken, lazySamples } from '../sample-tokens.js';

const URL_ENCODED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789%';

export default defineRules([
  // App-only bearer tokens start with a run of 21-22 `A`s (their zero-padded app id), then the URL-encoded secret.
  {
    id: 'twitter-app-bearer-token',
    title: 'X (Twitter) app-only bearer token (AAAAAAAAAAAAAAAAAAAAA…)',
    severity: 'high',
    keywords: ['AAAAAAAAAAAAAAAAAAAAA'],
    pattern: /(?<![A-Za-z0-9%])(A{21,22}[B-Za-z0-9][A-Za-z0-9%]{70,110})(?![A-Za-z0-9%])/,
    entropy: 3.5,
    // A base64 blob of zeros has the same run: the token's secret half is URL-encoded base64 (`%2B`, `%3D`, `%2F`).
    validate: (token) => /%(?:2B|2F|3D)/.test(token) && /[a-z]/.test(token) && /[0-9]/.test(token),
    samples: lazySamples(() => ({
      match: [
        `${'A'.repeat(21)}Mkq0AAAAAAA${fakeToken('', 20)}%2B${fakeToken('', 18)}%3D${fakeToken('', 40, URL_ENCODED.slice(0, -1))}`,
      ],
      ignore: [`${'A'.repeat(21)}${fakeToken('', 80)}`, `${'A'.repeat(21)}Mkq0%2B${'A'.repeat(80)}`],
    })),
  },
]);
