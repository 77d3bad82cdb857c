import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeHex, fakeToken, lazySamples, UPPER_ALPHANUMERIC } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'newrelic-user-api-key',
    title: 'New Relic user API key',
    prefix: 'NRAK-',
    body: '[A-Z0-9]{27}',
    match: () => [fakeToken('NRAK-', 27, UPPER_ALPHANUMERIC)],
  }),
  prefixedToken({
    id: 'newrelic-rest-api-key',
    title: 'New Relic REST API key',
    prefix: 'NRRA-',
    body: '[a-f0-9]{42}',
    match: () => [`NRRA-${fakeHex(42)}`],
  }),
  prefixedToken({
    id: 'newrelic-admin-api-key',
    title: 'New Relic admin API key',
    prefix: 'NRAA-',
    body: '[a-f0-9]{27}',
    match: () => [`NRAA-${fakeHex(27)}`],
  }),
  // The browser agent ships its key in every page: reported low, for the record.
  prefixedToken({
    id: 'newrelic-browser-api-key',
    title: 'New Relic browser API key (public, browser agent)',
    prefix: 'NRJS-',
    body: '[a-f0-9]{19}',
    severity: 'low',
    match: () => [`NRJS-${fakeHex(19)}`],
  }),
  // Browser application keys of the copy-paste snippet: public like NRJS-, reported low.
  prefixedToken({
    id: 'newrelic-browser-app-key',
    title: 'New Relic browser application key (public, browser snippet)',
    prefix: 'NRBR-',
    body: '[a-f0-9]{19}',
    severity: 'low',
    match: () => [`NRBR-${fakeHex(19)}`],
  }),
  {
    id: 'newrelic-license-key',
    title: 'New Relic license (ingest) key (…NRAL)',
    severity: 'high',
    keywords: ['NRAL'],
    // 40 characters ending in `NRAL`: 32 hex and four more (`FFFF` in current keys), where keys of EU accounts
    // replace the first six with their region (`eu01xx`).
    pattern: /(?<![A-Za-z0-9_-])((?:[a-f0-9]{32}|eu01x[a-f0-9x][a-f0-9]{26})(?:[a-f0-9]{4}|FFFF)NRAL)(?![A-Za-z0-9_-])/,
    entropy: 3,
    samples: lazySamples(() => ({
      match: [
        `${fakeHex(36)}NRAL`,
        `eu01x${fakeHex(31)}NRAL`,
        `eu01xx${fakeHex(30)}NRAL`,
        `${fakeHex(32)}FFFFNRAL`,
        `eu01xx${fakeHex(26)}FFFFNRAL`,
      ],
      ignore: [`${'0'.repeat(36)}NRAL`, `\${NEW_RELIC_LICENSE_KEY}NRAL`],
    })),
  },
  prefixedToken({
    id: 'newrelic-insights-query-key',
    title: 'New Relic Insights query key',
    prefix: 'NRIQ-',
    body: '[A-Za-z0-9_-]{32}',
    match: () => [fakeToken('NRIQ-', 32)],
  }),
  // Mobile app tokens: `AA` and 40 hex (42 hex, or the `eu01xx` region and 36, in other examples) and `-NRMA`.
  {
    id: 'newrelic-mobile-app-token',
    title: 'New Relic mobile app token (…-NRMA)',
    severity: 'medium',
    keywords: ['-NRMA'],
    pattern: /(?<![A-Za-z0-9_-])((?:AA[a-f0-9]{40}|[a-f0-9]{42}|eu01xx[a-f0-9]{36})-NRMA)(?![A-Za-z0-9_-])/,
    entropy: 3,
    samples: lazySamples(() => ({
      match: [`AA${fakeHex(40)}-NRMA`, `${fakeHex(42)}-NRMA`, `eu01xx${fakeHex(36)}-NRMA`],
      ignore: [`${'0'.repeat(42)}-NRMA`, `\${NEW_RELIC_APP_TOKEN}-NRMA`],
    })),
  },
  prefixedToken({
    id: 'newrelic-insert-key',
    title: 'New Relic insert key',
    prefix: 'NRII-',
    body: '[A-Za-z0-9_-]{32}',
    match: () => [fakeToken('NRII-', 32)],
  }),
]);
