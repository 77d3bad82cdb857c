import { describe, expect, test } from 'vitest';
import { fakeHex, LOWER_ALPHANUMERIC, randomString } from '../sample-tokens.js';
import { SecretScanner } from '../scanner.js';
import { builtinRules } from './index.js';

const scanner = new SecretScanner(builtinRules);
const ids = (text: string, path = 'notes/accounts.txt') => scanner.scanText(text, { path }).map((item) => item.rule.id);
/** Nimble keys: 30 letters and digits. */
const nimble = randomString(30, LOWER_ALPHANUMERIC, 'prose-test-nimble');
const uuid = [8, 4, 4, 4, 12].map((length, index) => fakeHex(length, `prose-test-scw${index}`)).join('-');

describe('a provider key after its name and a space', () => {
  test('is reported when the provider word is followed by credential words only', () => {
    expect(ids(`nimble token ${nimble}\n`)).toEqual(['providers-prose-spaced-key']);
    expect(ids(`NIMBLE_API_KEY ${nimble}\n`)).toEqual(['providers-prose-spaced-key']);
    expect(ids(`nimbleSecretKey "${nimble}"\n`)).toEqual(['providers-prose-spaced-key']);
    expect(ids(`Use the nimble access token ${nimble} for the import.\n`)).toEqual(['providers-prose-spaced-key']);
  });

  test("knows every table's providers (Scaleway's SCW secret key from the SaaS table)", () => {
    expect(ids(`SCW_SECRET_KEY ${uuid}\n`)).toEqual(['providers-prose-spaced-key']);
  });

  test('stays quiet on prose, code and values outside the shape', () => {
    expect(ids(`nimble token ${nimble}x\n`)).toEqual([]);
    expect(ids(`nimble client key ${nimble}\n`)).toEqual([]);
    expect(ids('the nimble token expires after 30 days of inactivity\n')).toEqual([]);
    expect(ids('def nimble_token(self, refresh_after_seconds3600):\n', 'src/client.py')).toEqual([]);
    expect(ids(`private String nimbleToken ${'getTokenFromVault1234'};\n`, 'src/Client.java')).toEqual([]);
    expect(ids(`random key ${nimble}\n`)).toEqual([]);
  });
});

describe('a provider key named in words, with = or :', () => {
  test("finds the second and third tables' providers too", () => {
    const zendesk = randomString(40, LOWER_ALPHANUMERIC, 'prose-test-zendesk');
    expect(ids(`Using zendesk token: ${zendesk}\n`)).toEqual(['providers-prose-named-key']);
    expect(ids(`nimble api key = ${nimble}\n`)).toEqual(['providers-prose-named-key']);
  });

  test('knows a provider with credential words run on (trelloapikey), not a longer word', () => {
    expect(ids(`nimbleapikey token - '${nimble}'\n`)).toEqual(['providers-prose-named-key']);
    expect(ids(`nimblest token - '${nimble}'\n`)).toEqual([]);
  });
});

describe('a provider key logged on the line after a request to its provider', () => {
  const apiflash = randomString(32, LOWER_ALPHANUMERIC, 'prose-test-apiflash');
  const log = (first: string, second: string) => ids(`${first}\n${second}\n`, 'logs/client.log');

  test('is reported when the line before names the provider and the value is in its shape', () => {
    expect(log('[INFO] Sending request to the apiflash API', `[DEBUG] Using Key=${apiflash}`)).toEqual([
      'providers-prose-logged-key',
    ]);
    const aha = fakeHex(64, 'prose-test-aha');
    expect(log('[INFO] sending request to the aha.io API', `[DEBUG] using key = ${aha}`)).toEqual([
      'providers-prose-logged-key',
    ]);
  });

  test('stays quiet on IDs, unknown providers, no provider and hand-edited values', () => {
    expect(log('[INFO] Sending request to the apiflash API', `[DEBUG] Using ID=${apiflash}`)).toEqual([]);
    expect(log('[INFO] Sending request to the payments API', `[DEBUG] Using Key=${apiflash}`)).toEqual([]);
    expect(log('[INFO] Sending request to the API', `[DEBUG] Using Key=${apiflash}`)).toEqual([]);
    const edited = `${apiflash.slice(0, 10)}R${apiflash.slice(11)}`;
    expect(log('[INFO] Sending request to the apiflash API', `[DEBUG] Using Key=${edited}`)).toEqual([]);
  });
});

describe("a key in a URL's query on its provider's host", () => {
  const nimbleKey = nimble;
  test('is reported when the domain is a known provider and the value in its shape', () => {
    expect(ids(`fetch("https://api.nimble.com/v1/contacts?key=${nimbleKey}")\n`, 'src/client.js')).toEqual([
      'providers-prose-url-key',
    ]);
  });

  test('stays quiet on other hosts, other parameters and values outside the shape', () => {
    expect(ids(`fetch("https://api.example.com/v1/contacts?key=${nimbleKey}")\n`, 'src/client.js')).toEqual([]);
    expect(ids(`fetch("https://api.nimble.com/v1/contacts?page=${nimbleKey}")\n`, 'src/client.js')).toEqual([]);
    expect(ids(`fetch("https://api.nimble.com/v1/contacts?key=${nimbleKey}x")\n`, 'src/client.js')).toEqual([]);
  });
});
