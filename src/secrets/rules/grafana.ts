import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { base64Of, fakeHex, fakeToken } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'grafana-cloud-token',
    title: 'Grafana Cloud API token',
    prefix: 'glc_',
    body: '[A-Za-z0-9+/]{32,400}={0,2}',
    severity: 'critical',
    match: [`glc_${base64Of(JSON.stringify({ o: '882211', n: 'deploy', k: fakeToken('', 24) }))}`],
  }),
  prefixedToken({
    id: 'grafana-service-account-token',
    title: 'Grafana service account token',
    prefix: 'glsa_',
    body: '[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}',
    match: [`glsa_${fakeToken('', 32)}_${fakeHex(8)}`],
  }),
]);
