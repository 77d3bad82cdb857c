import { defineRules } from '../rule.js';
import { namedValue } from '../rule-builders.js';
import { fakeToken, lazySamples, URL_SAFE } from '../sample-tokens.js';

export default defineRules([
  namedValue({
    id: 'okta-api-token',
    title: 'Okta API token',
    provider: 'okta',
    body: '00[A-Za-z0-9_-]{40}',
    key: 'OKTA_API_TOKEN',
    severity: 'critical',
    match: () => [fakeToken('00', 40, URL_SAFE)],
  }),
  // Okta's own scheme names the token in the header: `Authorization: SSWS 00…`, with or without an Okta name nearby.
  {
    id: 'okta-ssws-header',
    title: 'Okta API token in an SSWS authorization header (SSWS 00…)',
    severity: 'critical',
    keywords: ['SSWS '],
    gate: /[ \t]{0,3}00[A-Za-z0-9_-]{40}(?![A-Za-z0-9_-])/,
    pattern: /(?<![A-Za-z0-9_-])SSWS[ \t]{1,4}(?<secret>00[A-Za-z0-9_-]{40})(?![A-Za-z0-9_-])/,
    entropy: 3,
    samples: lazySamples(() => ({
      match: [`SSWS ${fakeToken('00', 40, URL_SAFE, 'okta-ssws')}`],
      // The docs' elided example and a scheme named in prose.
      ignore: ['SSWS 00QCjAl4MlV-WPXM...0HmjFx-vbGua', 'SSWS $' + '{OKTA_API_TOKEN}', 'SSWS scheme'],
    })),
  },
]);
