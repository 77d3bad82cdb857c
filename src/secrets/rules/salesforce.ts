import { defineRules } from '../rule.js';
import { fakeToken, lazySamples, URL_SAFE } from '../sample-tokens.js';
import { mixesDigitsAndCases } from '../token-shape.js';

export default defineRules([
  // A session id / OAuth access token: the 15-character org id (00D…), `!`, then the session secret.
  {
    id: 'salesforce-access-token',
    title: 'Salesforce access token (00D…!…)',
    severity: 'critical',
    keywords: ['00D'],
    gate: /[A-Za-z0-9]{12}!/,
    pattern: /(?<![A-Za-z0-9])(00D[A-Za-z0-9]{12}![A-Za-z0-9._]{80,200})(?![A-Za-z0-9._])/,
    entropy: 4,
    validate: (token) => mixesDigitsAndCases(token.slice(16)),
    samples: lazySamples(() => ({
      match: [`00D${fakeToken('', 12)}!AQ${fakeToken('', 94, URL_SAFE).replace(/[-_]/g, '.')}`],
      ignore: ['00DFT5H59PHLAN0IA', `00D${fakeToken('', 12)}!\${SF_SESSION}`],
    })),
  },
]);
