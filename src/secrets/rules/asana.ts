import { defineRules } from '../rule.js';
import { namedValue } from '../rule-builders.js';
import { fakeHex, fakeToken } from '../sample-tokens.js';

const DIGITS = '0123456789';

/**
 * Asana calls its tokens opaque, so the shapes are those its developer console has issued: `0/` and 32 hex (before
 * 2019), `1/<user gid>:<32 hex>`, and `2/<user gid>/<app gid>:<32 hex>` (current). None has a prefix a scanner can
 * anchor on, so the value must be assigned to a name that says Asana.
 */
export default defineRules([
  namedValue({
    id: 'asana-personal-access-token',
    title: 'Asana personal access token (named)',
    provider: 'asana',
    body: '(?:0/[a-f0-9]{32}|1/[0-9]{8,20}:[a-f0-9]{32}|2/[0-9]{8,20}/[0-9]{8,20}:[a-f0-9]{32})',
    key: 'ASANA_ACCESS_TOKEN',
    severity: 'critical',
    match: () => [
      `2/${fakeToken('', 16, DIGITS, 'asana-user')}/${fakeToken('', 16, DIGITS, 'asana-app')}:${fakeHex(32, 'asana-v2')}`,
      `1/${fakeToken('', 13, DIGITS, 'asana-user-v1')}:${fakeHex(32, 'asana-v1')}`,
      `0/${fakeHex(32, 'asana-v0')}`,
    ],
    // A project path and a task id, which Asana integrations' configs hold beside the token under similar names.
    ignore: () => ['0/1203456789012345/1203456789012346', '1/1203456789012345', `2/1203456789012345/1203456789012346:`],
  }),
]);
