import { defineRules } from '../rule.js';
import { namedValue } from '../rule-builders.js';
import { fakeHex } from '../sample-tokens.js';

export default defineRules([
  namedValue({
    id: 'datadog-api-key',
    title: 'Datadog API key',
    provider: 'datadog',
    body: '[a-f0-9]{32}',
    key: 'DATADOG_API_KEY',
    match: () => [fakeHex(32)],
  }),
  namedValue({
    id: 'datadog-app-key',
    title: 'Datadog application key',
    provider: 'datadog',
    body: '[a-f0-9]{40}',
    key: 'DATADOG_APP_KEY',
    match: () => [fakeHex(40)],
  }),
  namedValue({
    id: 'datadog-dd-api-key',
    title: 'Datadog API key (DD_API_KEY)',
    provider: 'dd_',
    body: '[a-f0-9]{32}',
    key: 'DD_API_KEY',
    match: () => [fakeHex(32)],
  }),
]);
