import { isPlaceholder } from '../placeholders.js';
import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { base64Of, fakeHex, fakeToken, lazySamples } from '../sample-tokens.js';

/** A legacy Grafana API key decodes to `{"k":"<32 alphanumerics>","n":"<name>","id":<org>}`; the `k` part is the secret. */
function isGrafanaApiKey(encoded: string): boolean {
  const match = /^\{"k":"([A-Za-z0-9]{32})","n":"[^"]{1,200}","id":\d{1,12}\}\s*$/.exec(
    Buffer.from(encoded, 'base64').toString('latin1'),
  );
  return match !== null && !isPlaceholder(match[1]!);
}

export default defineRules([
  prefixedToken({
    id: 'grafana-cloud-token',
    title: 'Grafana Cloud API token',
    prefix: 'glc_',
    body: '[A-Za-z0-9+/]{32,400}={0,2}',
    severity: 'critical',
    match: () => [`glc_${base64Of(JSON.stringify({ o: '882211', n: 'deploy', k: fakeToken('', 24) }))}`],
  }),
  {
    id: 'grafana-api-key',
    title: 'Grafana API key (eyJrIjoi…, base64 of {"k":…,"n":…,"id":…})',
    severity: 'high',
    keywords: ['eyJrIjoi'],
    pattern: /(?<![A-Za-z0-9+/])(eyJrIjoi[A-Za-z0-9+/]{40,400}={0,2})(?![A-Za-z0-9+/=])/,
    entropy: 3,
    validate: isGrafanaApiKey,
    samples: lazySamples(() => ({
      match: [base64Of(JSON.stringify({ k: fakeToken('', 32), n: 'deploy', id: 1 }))],
      ignore: [base64Of(JSON.stringify({ k: '0'.repeat(32), n: 'xxxx', id: 1 }))],
    })),
  },
  prefixedToken({
    id: 'grafana-service-account-token',
    title: 'Grafana service account token',
    prefix: 'glsa_',
    body: '[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}',
    match: () => [`glsa_${fakeToken('', 32)}_${fakeHex(8)}`],
  }),
]);
