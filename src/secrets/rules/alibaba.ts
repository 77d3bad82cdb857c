import { defineRules } from '../rule.js';
import { namedValue, prefixedToken } from '../rule-builders.js';
import { fakeToken } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'alibaba-access-key-id',
    title: 'Alibaba Cloud AccessKey ID',
    prefix: 'LTAI',
    body: '[A-Za-z0-9]{20}',
    match: [fakeToken('LTAI', 20)],
  }),
  namedValue({
    id: 'alibaba-access-key-secret',
    title: 'Alibaba Cloud AccessKey secret',
    provider: 'alibaba',
    body: '[A-Za-z0-9]{30}',
    key: 'ALIBABA_CLOUD_ACCESS_KEY_SECRET',
    severity: 'critical',
    match: [fakeToken('', 30)],
  }),
]);
