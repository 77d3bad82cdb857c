import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeToken, UPPER_ALPHANUMERIC } from '../sample-tokens.js';

/** Defined Networking (managed Nebula) API keys. */
export default defineRules([
  prefixedToken({
    id: 'defined-networking-api-key',
    title: 'Defined Networking API key',
    prefix: 'dnkey-',
    body: '[A-Z0-9]{26}-[A-Z0-9]{52}',
    match: () => [`${fakeToken('dnkey-', 26, UPPER_ALPHANUMERIC)}-${fakeToken('', 52, UPPER_ALPHANUMERIC)}`],
  }),
]);
