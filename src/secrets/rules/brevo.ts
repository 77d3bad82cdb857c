import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeHex, fakeToken } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'brevo-api-key',
    title: 'Brevo (Sendinblue) API key',
    prefix: 'xkeysib-',
    body: '[a-f0-9]{64}-[A-Za-z0-9]{16}',
    match: () => [`xkeysib-${fakeHex(64)}-${fakeToken('', 16)}`],
  }),
]);
