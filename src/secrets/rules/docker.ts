import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { base64Of, fakeHumanPassword, fakeToken, LOWER_ALPHANUMERIC, lazySamples, URL_SAFE } from '../sample-tokens.js';
import { decodesToUserAndPassword } from './npm.js';

/** base64 of a Docker config (`{"auths":…`) whose entries carry a decodable `auth` or a `password`. */
function dockerConfigHasCredentials(encoded: string): boolean {
  const text = Buffer.from(encoded, 'base64').toString('utf8');
  for (const match of text.matchAll(/"auth"\s*:\s*"([A-Za-z0-9+/=]{8,400})"/g))
    if (decodesToUserAndPassword(match[1]!)) return true;
  return /"password"\s*:\s*"[^"$<{]{4,}"/.test(text);
}

export default defineRules([
  prefixedToken({
    id: 'docker-hub-pat',
    title: 'Docker Hub personal access token',
    prefix: 'dckr_pat_',
    body: '[A-Za-z0-9_-]{27,40}',
    severity: 'critical',
    match: () => [fakeToken('dckr_pat_', 27, URL_SAFE)],
  }),
  prefixedToken({
    id: 'docker-hub-oat',
    title: 'Docker Hub organization access token',
    prefix: 'dckr_oat_',
    body: '[A-Za-z0-9_-]{27,40}',
    severity: 'critical',
    match: () => [fakeToken('dckr_oat_', 32, URL_SAFE)],
  }),
  prefixedToken({
    id: 'docker-swarm-join-token',
    title: 'Docker Swarm join token',
    prefix: 'SWMTKN-1-',
    body: '[a-z0-9]{50}-[a-z0-9]{25}',
    match: () => [`${fakeToken('SWMTKN-1-', 50, LOWER_ALPHANUMERIC)}-${fakeToken('', 25, LOWER_ALPHANUMERIC)}`],
  }),
  prefixedToken({
    id: 'docker-swarm-unlock-key',
    title: 'Docker Swarm unlock key',
    prefix: 'SWMKEY-1-',
    body: '[A-Za-z0-9+/]{43}',
    match: () => [fakeToken('SWMKEY-1-', 43)],
  }),
  {
    id: 'docker-config-auth',
    title: 'Docker registry credentials ("auth": base64 of user:password)',
    severity: 'critical',
    keywords: ['"auth"', '\\"auth\\"'],
    pattern: /\\?"auth\\?"[ \t]{0,4}:[ \t]{0,4}\\?"([A-Za-z0-9+/]{8,400}={0,2})\\?"/,
    validate: decodesToUserAndPassword,
    samples: lazySamples(() => ({
      key: '"auth"',
      match: [base64Of(`ci-bot:${fakeHumanPassword()}`)],
      ignore: [base64Of(`ci-bot:\${REGISTRY_PASSWORD}`), base64Of('not-a-pair')],
      contexts: [
        {
          name: 'docker config',
          path: '.docker/config.json',
          render: (value) => JSON.stringify({ auths: { 'registry.acme.internal': { auth: value } } }, null, 2),
        },
        {
          name: 'docker config inside a JSON string',
          path: 'values.json',
          render: (value) =>
            JSON.stringify({ dockerconfig: JSON.stringify({ auths: { 'registry.acme.internal': { auth: value } } }) }),
        },
      ],
    })),
  },
  {
    id: 'docker-config-json-base64',
    title: 'Base64-wrapped Docker config with credentials (.dockerconfigjson)',
    severity: 'critical',
    keywords: ['eyJhdXRocyI6'],
    pattern: /(eyJhdXRocyI6[A-Za-z0-9+/]{20,8000}={0,2})/,
    window: 'block',
    maxLength: 9000,
    validate: dockerConfigHasCredentials,
    samples: lazySamples(() => ({
      match: [
        base64Of(
          JSON.stringify({ auths: { 'registry.acme.internal': { auth: base64Of(`deploy:${fakeHumanPassword()}`) } } }),
        ),
      ],
      ignore: [
        base64Of(JSON.stringify({ auths: { 'registry.acme.internal': { auth: base64Of(`deploy:\${TOKEN}`) } } })),
      ],
    })),
  },
]);
