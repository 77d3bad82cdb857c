import { describe, expect, test } from 'vitest';
import { expectLookBackFindsTheSame, namedTexts } from '../../test/support/gate-look-back.js';
import { gateCheckOf } from './gate-checks.js';
import type { SecretRule } from './rule.js';
import { builtinRules } from './rules/index.js';
import { inNameField, SPLIT_FIELD_GATE } from './split-fields.js';

const splitFieldRules = builtinRules.filter((rule) => rule.gate === SPLIT_FIELD_GATE) as SecretRule[];

const opens = (text: string, word = 'token') => inNameField(text, text.lastIndexOf(word) + word.length);

describe('the split-field rules’ look back', () => {
  test('the gate of the split-field and Terraform variable rules carries the check', () => {
    expect(splitFieldRules.map((rule) => rule.id).sort()).toEqual([
      'generic-password-split-field',
      'generic-password-terraform-variable',
      'generic-secret-split-field',
      'generic-secret-terraform-variable',
    ]);
    expect(gateCheckOf(SPLIT_FIELD_GATE)).toBe(inNameField);
  });

  test('a name in a name field opens a window; the same word quoted in code does not', () => {
    expect(opens('{ "name": "API_token", "value": "x" }')).toBe(true);
    expect(opens('{"Key":"api_token",')).toBe(true);
    expect(opens('{ "ParameterKey" : "Db_token",')).toBe(true);
    expect(opens('  name  = "app_token"\n')).toBe(true);
    expect(opens('variable "api_token" {')).toBe(true);
    expect(opens('<property><name>auth.token</name>')).toBe(true);
    expect(opens('<key>Api_token</key>')).toBe(true);
    expect(opens('"name": "app_secret key"', 'key')).toBe(true);
    // A name's one blank is its credential word's.
    expect(opens('"name": "my secret key"', 'key')).toBe(false);
    expect(opens('["token", "secret"]')).toBe(false);
    expect(opens('{"type": "token",')).toBe(false);
    expect(opens('"locationName": "nextToken"\n')).toBe(false);
    expect(opens('hostname = "token"\n')).toBe(false);
    expect(opens('x = "token",')).toBe(false);
    expect(opens('"token",')).toBe(false);
    expect(opens('<value>token</value>')).toBe(false);
    // Read back too far for the check: the regex decides.
    expect(opens(`"${'a'.repeat(200)}token",`)).toBe(true);
    expect(opens(`[${' '.repeat(200)}"token",`)).toBe(true);
  });

  test('a text’s start is read as a line’s, as tiles of whole lines are', () => {
    expect(opens('token",')).toBe(opens('x\ntoken",'));
    expect(opens('"token",')).toBe(opens('x\n"token",'));
    expect(opens(': "token",')).toBe(opens('x\n: "token",'));
    expect(opens('name="token",')).toBe(opens('x\nname="token",'));
  });

  test('the rules find the same secrets with the look back as with their gate regex alone', () => {
    const fields = namedTexts({
      before: [
        '{ "name": "',
        '"Key":"',
        '"ParameterKey" : "',
        'name = "',
        'hostname = "',
        '"locationName": "',
        'variable  "',
        '<name>',
        '<Key>',
        '<value>',
        '["',
        'x = "',
        '"type": "',
        '"',
        ' ',
        '\n',
      ],
      name: ['a', 'Z', '7', '_', '.', '-', ' ', 'db'],
      keywords: ['token', 'password', 'secret key', 'api_key', 'CREDENTIAL', 'pw'],
      rest: ['a', '_', '1', '"', ','],
      after: [
        '", "value": "Zq8pLr4TWm3xYv7K"',
        '",\n  "Value": "Kestrel-92!x"',
        '"\n  value = "Zq8pLr4TWm3xYv7K"',
        '</name><value>Zq8pLr4TWm3xYv7K</value>',
        '</key>\n<string>Kestrel-92!x</string>',
        '", "ParameterValue": "Zq8pLr4TWm3xYv7K"',
        '" {\n  type = string\n  default = "Zq8pLr4TWm3xYv7K"\n}',
        '",',
        '"',
      ],
      paths: ['settings.json', 'main.tf', 'conf/site.xml', 'src/app.ts'],
    });
    expectLookBackFindsTheSame(splitFieldRules, fields);
  });
});
