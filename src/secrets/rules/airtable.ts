import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeHex, fakeToken, lazySamples } from '../sample-tokens.js';

const airtable = prefixedToken({
  id: 'airtable-pat',
  title: 'Airtable personal access token',
  prefix: 'pat',
  body: '[A-Za-z0-9]{14}\\.[a-f0-9]{64}',
  match: () => [`pat${fakeToken('', 14)}.${fakeHex(64)}`],
});

export default defineRules([
  // `pat` alone would wake the rule on every `path` and `pattern`: the provider's name is the anchor instead.
  // The builder's gate reads what follows the prefix keyword; with the provider's name as keyword it does not apply.
  {
    ...airtable,
    keywords: ['airtable'],
    gate: undefined,
    samples: lazySamples(() => ({
      match: airtable.samples.match,
      ignore: airtable.samples.ignore,
      key: 'AIRTABLE_TOKEN',
    })),
  },
]);
