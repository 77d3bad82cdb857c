import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeToken, LOWER_ALPHANUMERIC } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'doppler-service-token',
    title: 'Doppler service token',
    prefix: 'dp.st.',
    body: '(?:[a-z0-9_-]{2,35}\\.)?[A-Za-z0-9]{40,44}',
    severity: 'critical',
    match: () => [`dp.st.prd.${fakeToken('', 43)}`],
  }),
  prefixedToken({
    id: 'doppler-personal-token',
    title: 'Doppler personal token',
    prefix: 'dp.pt.',
    body: '[A-Za-z0-9]{40,44}',
    severity: 'critical',
    match: () => [fakeToken('dp.pt.', 43, LOWER_ALPHANUMERIC + 'ABCDEFGHIJ')],
  }),
  ...(
    [
      ['dp.sa.', 'doppler-service-account-token', 'Doppler service account token'],
      ['dp.ct.', 'doppler-cli-token', 'Doppler CLI token'],
      ['dp.scim.', 'doppler-scim-token', 'Doppler SCIM token'],
      ['dp.audit.', 'doppler-audit-token', 'Doppler audit token'],
    ] as const
  ).map(([prefix, id, title]) =>
    prefixedToken({
      id,
      title,
      prefix,
      body: '[A-Za-z0-9]{40,44}',
      severity: 'critical',
      // A seed of its own: the shared sample counter would shift the samples of every file loaded after this one.
      match: () => [fakeToken(prefix, 43, LOWER_ALPHANUMERIC + 'ABCDEFGHIJ', id)],
    }),
  ),
]);
