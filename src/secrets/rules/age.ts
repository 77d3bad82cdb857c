import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeToken } from '../sample-tokens.js';

const BECH32 = 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L';

export default defineRules([
  prefixedToken({
    id: 'age-secret-key',
    title: 'age encryption secret key',
    prefix: 'AGE-SECRET-KEY-1',
    body: `[${BECH32}]{58}`,
    severity: 'critical',
    match: () => [fakeToken('AGE-SECRET-KEY-1', 58, BECH32)],
  }),
]);
