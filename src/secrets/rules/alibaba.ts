import { defineRules } from '../rule.js';
import { namedValue, prefixedToken } from '../rule-builders.js';
import { fakeToken } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'alibaba-access-key-id',
    title: 'Alibaba Cloud AccessKey ID',
    prefix: 'LTAI',
    // Older IDs have 12 characters after the prefix, newer ones 20 or 21.
    body: '[A-Za-z0-9]{12,21}',
    match: () => [fakeToken('LTAI', 20), fakeToken('LTAI', 12)],
  }),
  namedValue({
    id: 'alibaba-access-key-secret',
    title: 'Alibaba Cloud AccessKey secret',
    provider: 'alibaba',
    body: '[A-Za-z0-9]{30}',
    key: 'ALIBABA_CLOUD_ACCESS_KEY_SECRET',
    severity: 'critical',
    match: () => [fakeToken('', 30)],
  }),
]);
