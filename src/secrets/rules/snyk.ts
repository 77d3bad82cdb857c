import { defineRules } from '../rule.js';
import { namedValue } from '../rule-builders.js';
import { fakeHex } from '../sample-tokens.js';

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const fakeUuid = () => `${fakeHex(8)}-${fakeHex(4)}-4${fakeHex(3)}-a${fakeHex(3)}-${fakeHex(12)}`;

export default defineRules([
  namedValue({
    id: 'snyk-api-token',
    title: 'Snyk API token',
    provider: 'snyk',
    body: UUID,
    key: 'SNYK_TOKEN',
    match: () => [fakeUuid()],
  }),
]);
