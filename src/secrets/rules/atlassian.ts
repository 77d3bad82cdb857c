import { defineRules } from '../rule.js';
import { namedValue, prefixedToken } from '../rule-builders.js';
import { fakeHex, fakeToken, URL_SAFE } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'atlassian-api-token',
    title: 'Atlassian API token',
    prefix: 'ATATT3x',
    // The `=` before the 8-digit checksum may be escaped: `\\=` in .properties files, `%3D` in URLs.
    body: '(?:[A-Za-z0-9_=-]{180,200}|[A-Za-z0-9_-]{170,195}(?:\\\\=|%3[Dd])[A-Fa-f0-9]{8})',
    severity: 'critical',
    match: () => [
      `${fakeToken('ATATT3x', 178, URL_SAFE)}=${fakeHex(8).toUpperCase()}`,
      `${fakeToken('ATATT3x', 178, URL_SAFE)}%3D${fakeHex(8).toUpperCase()}`,
    ],
  }),
  // Tokens made before the 2023 format were 24 letters and digits with no prefix: found only under a name that says
  // whose they are. They stopped expiring only in 2026, so old scripts and CI settings still hold live ones.
  {
    ...namedValue({
      id: 'atlassian-legacy-api-token',
      title: 'Atlassian API token, pre-2023 format (24 characters, named)',
      provider: ['atlassian', 'jira', 'confluence'],
      body: '[A-Za-z0-9]{24}',
      key: 'JIRA_API_TOKEN',
      severity: 'high',
      match: () => [
        fakeToken('', 24, undefined, 'atlassian-legacy'),
        fakeToken('', 24, undefined, 'atlassian-legacy-2').replace(/[A-Z]/g, (c) => c.toLowerCase()),
      ],
      // A Jira project key and a 24-letter name: names of things, not tokens.
      ignore: () => ['PLATFORM', 'OPSTEAMPLATFORMMIGRATION'],
    }),
    validate: (secret) => /[0-9]/.test(secret) && /[A-Za-z]/.test(secret),
  },
]);
