import { defineRules } from '../rule.js';
import { namedValue, prefixedToken } from '../rule-builders.js';
import { fakeToken, LOWER_ALPHANUMERIC, URL_SAFE } from '../sample-tokens.js';

/**
 * Dropbox OAuth tokens (after gitleaks' `dropbox-short-lived-api-token` and `dropbox-long-lived-api-token`, own
 * regexes). Short-lived tokens announce themselves with `sl.` (newer ones `sl.u.`); long-lived ones have no prefix
 * but a fixed `AAAAAAAAAA` at offset 11, so like gitleaks they need a `dropbox…token` name next to them.
 */
// Explicit seeds: the shared sample counter stays where it was, so other rules' samples do not shift.
const longLived = (seed: string) =>
  `${fakeToken('', 11, LOWER_ALPHANUMERIC, `${seed}a`)}AAAAAAAAAA${fakeToken('', 43, URL_SAFE, `${seed}b`)}`;

export default defineRules([
  prefixedToken({
    id: 'dropbox-short-lived-token',
    title: 'Dropbox short-lived access token',
    prefix: 'sl.',
    body: '(?:u\\.)?[A-Za-z0-9_=-]{130,1400}',
    entropy: 3.5,
    match: () => [fakeToken('sl.', 135, URL_SAFE, 'dropbox-sl-1'), fakeToken('sl.u.', 240, URL_SAFE, 'dropbox-sl-2')],
    ignore: () => [fakeToken('sl.', 40, URL_SAFE, 'dropbox-sl-short'), `sl.${'a'.repeat(135)}`],
  }),
  namedValue({
    id: 'dropbox-long-lived-token',
    title: 'Dropbox long-lived access token',
    provider: 'dropbox',
    body: '[A-Za-z0-9]{11}AAAAAAAAAA[A-Za-z0-9_=-]{43}',
    key: 'DROPBOX_ACCESS_TOKEN',
    match: () => [longLived('dropbox-ll-1'), longLived('dropbox-ll-2')],
    ignore: () => [`${'a'.repeat(11)}AAAAAAAAAA${'a'.repeat(43)}`],
  }),
]);
