import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeToken } from '../sample-tokens.js';
import { mixesDigitsAndCases } from '../token-shape.js';

export default defineRules([
  prefixedToken({
    validate: mixesDigitsAndCases,
    ignore: () => ['rnd_generateRandomValueFromSeedBytes'],
    id: 'render-api-key',
    title: 'Render API key',
    prefix: 'rnd_',
    body: '[A-Za-z0-9]{32}',
    severity: 'critical',
    match: () => [fakeToken('rnd_', 32)],
  }),
]);
