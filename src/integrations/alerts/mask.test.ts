import { describe, expect, test } from 'vitest';
import { maskSecret } from '../../secrets/mask.js';
import { fakeChecksumToken } from '../../secrets/sample-tokens.js';
import { createRedactor, maskAuthorizationHeaders, maskUrlCredentials } from './mask.js';

const ALERT = fakeChecksumToken('ghp_', 'mask-alert');
const CREDENTIAL = fakeChecksumToken('ghp_', 'mask-credential');
const OTHER = fakeChecksumToken('ghp_', 'mask-other');
const redact = createRedactor({ credentials: [CREDENTIAL], alertSecret: ALERT });

describe('createRedactor', () => {
  test.each([
    ['the credential as written', `token=${CREDENTIAL}`, 'token=***'],
    ['the credential in base64', `x ${Buffer.from(CREDENTIAL).toString('base64')} y`, 'x *** y'],
    [
      'the credential in an extraHeader',
      `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${CREDENTIAL}`).toString('base64')}`,
      'AUTHORIZATION: basic ***',
    ],
    ['the alert secret, masked', `found ${ALERT} in config`, `found ${maskSecret(ALERT)} in config`],
    ['the alert secret in base64', `b=${Buffer.from(ALERT).toString('base64')}`, `b=${maskSecret(ALERT)}`],
    [
      'a token in a URL',
      'https://x-access-token:abc123def@github.com/o/r.git',
      'https://x-access-token:***@github.com/o/r.git',
    ],
    ['any value the secret rules match', `export TOKEN=${OTHER}`, `export TOKEN=${maskSecret(OTHER)}`],
    ['a bearer header', '-H "Authorization: Bearer abc.def"', '-H "Authorization: Bearer ***"'],
  ])('hides %s', (_name, input, expected) => {
    expect(redact(input)).toBe(expected);
    expect(redact(input)).not.toContain(ALERT);
    expect(redact(input)).not.toContain(CREDENTIAL);
  });

  test('leaves ordinary text alone', () => {
    const text = '| Verdict | TRUE_POSITIVE |\nSee https://github.com/o/r/blob/main/a.ts#L3';
    expect(redact(text)).toBe(text);
  });
});

test.each([
  ['https://user:pw123@host/x', 'https://user:***@host/x'],
  ['git clone https://ghp_0123456789abcdefghij0123@github.com/o/r', 'git clone https://***@github.com/o/r'],
  ['https://github.com/o/r', 'https://github.com/o/r'],
])('maskUrlCredentials(%j)', (input, expected) => {
  expect(maskUrlCredentials(input)).toBe(expected);
});

test('maskAuthorizationHeaders keeps the scheme', () => {
  expect(maskAuthorizationHeaders('{"authorization": "token abc"}')).toBe('{"authorization": "token ***"}');
});
