import { defineRules } from '../rule.js';
import { namedValue, prefixedToken } from '../rule-builders.js';
import { fakeToken } from '../sample-tokens.js';
import { mixesDigitsAndCases } from '../token-shape.js';

const vercel = (prefix: string, id: string, title: string) =>
  prefixedToken({
    id,
    validate: mixesDigitsAndCases,
    ignore: () => [`${prefix}getDeploymentsForProjectAndTeamUntilDone`],
    title,
    prefix,
    body: '[A-Za-z0-9]{24,64}',
    severity: 'critical',
    match: () => [fakeToken(prefix, 56)],
  });

export default defineRules([
  vercel('vcp_', 'vercel-personal-token', 'Vercel personal access token'),
  vercel('vci_', 'vercel-integration-token', 'Vercel integration token'),
  vercel('vca_', 'vercel-app-access-token', 'Vercel app access token'),
  vercel('vcr_', 'vercel-app-refresh-token', 'Vercel app refresh token'),
  vercel('vck_', 'vercel-api-key', 'Vercel API key'),
  namedValue({
    id: 'vercel-legacy-token',
    title: 'Vercel access token',
    provider: 'vercel',
    body: '[A-Za-z0-9]{24}',
    key: 'VERCEL_TOKEN',
    match: () => [fakeToken('', 24)],
  }),
]);
