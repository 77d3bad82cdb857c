import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeHex, fakeToken, UPPER_ALPHANUMERIC } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'newrelic-user-api-key',
    title: 'New Relic user API key',
    prefix: 'NRAK-',
    body: '[A-Z0-9]{27}',
    match: [fakeToken('NRAK-', 27, UPPER_ALPHANUMERIC)],
  }),
  prefixedToken({
    id: 'newrelic-rest-api-key',
    title: 'New Relic REST API key',
    prefix: 'NRRA-',
    body: '[a-f0-9]{42}',
    match: [`NRRA-${fakeHex(42)}`],
  }),
  prefixedToken({
    id: 'newrelic-admin-api-key',
    title: 'New Relic admin API key',
    prefix: 'NRAA-',
    body: '[a-f0-9]{27}',
    match: [`NRAA-${fakeHex(27)}`],
  }),
  // The browser agent ships its key in every page: reported low, for the record.
  prefixedToken({
    id: 'newrelic-browser-api-key',
    title: 'New Relic browser API key (public, browser agent)',
    prefix: 'NRJS-',
    body: '[a-f0-9]{19}',
    severity: 'low',
    match: [`NRJS-${fakeHex(19)}`],
  }),
  {
    id: 'newrelic-license-key',
    title: 'New Relic license (ingest) key (…NRAL)',
    severity: 'high',
    keywords: ['NRAL'],
    // 40 characters ending in `NRAL`; keys of EU accounts start with their region (`eu01x…`).
    pattern: /(?<![A-Za-z0-9_-])((?:[a-f0-9]{36}|eu01x[a-f0-9]{31})NRAL)(?![A-Za-z0-9_-])/,
    entropy: 3,
    samples: {
      match: [`${fakeHex(36)}NRAL`, `eu01x${fakeHex(31)}NRAL`],
      ignore: [`${'0'.repeat(36)}NRAL`, `\${NEW_RELIC_LICENSE_KEY}NRAL`],
    },
  },
  prefixedToken({
    id: 'newrelic-insert-key',
    title: 'New Relic insert key',
    prefix: 'NRII-',
    body: '[A-Za-z0-9_-]{32}',
    match: [fakeToken('NRII-', 32)],
  }),
]);
