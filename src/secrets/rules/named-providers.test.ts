import { describe, expect, test } from 'vitest';
import { aliasIsWord } from '../rule-builders.js';
import { randomString } from '../sample-tokens.js';
import { SecretScanner } from '../scanner.js';
import { builtinRules } from './index.js';

const scanner = new SecretScanner(builtinRules);
const ids = (text: string) => scanner.scanText(text, { path: 'config/app.env' }).map((item) => item.rule.id);
const value = randomString(32, 'abcdefghijklmnopqrstuvwxyz0123456789', 'toggl-test');

describe('provider-named assignments', () => {
  test('report a prefix-less key under the provider named in its key, in any case style', () => {
    expect(ids(`TOGGL_API_TOKEN=${value}\n`)).toEqual(['toggl-named-key']);
    expect(ids(`togglApiKey: ${value}\n`)).toEqual(['toggl-named-key']);
    expect(ids(`app.toggl.auth_token = ${value}\n`)).toEqual(['toggl-named-key']);
  });

  test('an alias that only starts a longer word is not the provider', () => {
    expect(ids(`TOGGLE_API_KEY=${value}\n`)).not.toContain('toggl-named-key');
    expect(ids(`toggle_secret: ${value}\n`)).not.toContain('toggl-named-key');
  });

  test('placeholders and references are not reported', () => {
    expect(ids('TOGGL_API_TOKEN=$' + '{TOGGL_API_TOKEN}\n')).toEqual([]);
    expect(ids('TOGGL_API_TOKEN=your-toggl-api-token-goes-here\n')).toEqual([]);
  });

  test.each([
    ['toggl_key', true],
    ['TOGGL_KEY', true],
    ['TogglKey', true],
    ['my-toggl-token', true],
    ['toggle_key', false],
    ['TOGGLE_KEY', false],
    ['mytoggl_key', false],
  ])('aliasIsWord(%j) is %s', (name, expected) => {
    expect(aliasIsWord(name, ['toggl'])).toBe(expected);
  });

  test.each([
    ['openweatherapikey', true],
    ['OPENWEATHERAPIKEY', true],
    ['openweathertoken', true],
    ['openweathermap_key', false],
    ['openweathermapapikey', false],
  ])('aliasIsWord(%j) for a long alias run into a secret word is %s', (name, expected) => {
    expect(aliasIsWord(name, ['openweather'])).toBe(expected);
  });
});
