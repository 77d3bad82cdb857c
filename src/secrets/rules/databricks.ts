import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeHex } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'databricks-api-token',
    title: 'Databricks API token',
    prefix: 'dapi',
    body: '[a-f0-9]{32}(?:-\\d)?',
    severity: 'critical',
    match: () => [`dapi${fakeHex(32)}`],
  }),
]);
