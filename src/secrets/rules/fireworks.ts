import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeToken } from '../sample-tokens.js';
import { mixesDigitsAndCases } from '../token-shape.js';

export default defineRules([
  prefixedToken({
    validate: mixesDigitsAndCases,
    ignore: () => ['fw_updateFirmwareVersionAndRebootDevice'],
    id: 'fireworks-api-key',
    title: 'Fireworks AI API key',
    prefix: 'fw_',
    body: '[A-Za-z0-9]{24,48}',
    entropy: 3.5,
    match: () => [fakeToken('fw_', 24)],
  }),
]);
