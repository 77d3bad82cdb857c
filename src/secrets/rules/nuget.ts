import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeToken, LOWER_ALPHANUMERIC } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'nuget-api-key',
    title: 'NuGet API key',
    prefix: 'oy2',
    body: '[a-z0-9]{43}',
    entropy: 3.5,
    match: () => [fakeToken('oy2', 43, LOWER_ALPHANUMERIC)],
  }),
]);
