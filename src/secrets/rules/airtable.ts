import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeHex, fakeToken } from '../sample-tokens.js';

const airtable = prefixedToken({
  id: 'airtable-pat',
  title: 'Airtable personal access token',
  prefix: 'pat',
  body: '[A-Za-z0-9]{14}\\.[a-f0-9]{64}',
  match: [`pat${fakeToken('', 14)}.${fakeHex(64)}`],
});

export default defineRules([
  // `pat` alone would wake the rule on every `path` and `pattern`: the provider's name is the anchor instead.
  { ...airtable, keywords: ['airtable'], samples: { ...airtable.samples, key: 'AIRTABLE_TOKEN' } },
]);
