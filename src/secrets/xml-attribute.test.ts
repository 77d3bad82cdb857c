import { describe, expect, test } from 'vitest';
import { expectLookBackFindsTheSame, namedTexts } from '../../test/support/gate-look-back.js';
import { GATES, inAttributeValue } from './generic-gates.js';
import type { SecretRule } from './rule.js';
import { builtinRules } from './rules/index.js';

const xmlRules = builtinRules.filter((rule) => rule.gate === GATES.xmlAttribute) as SecretRule[];

const opens = (text: string, word = 'token') => inAttributeValue(text, text.lastIndexOf(word) + word.length);

describe('the XML-attribute rules’ look back', () => {
  test('a name in an attribute value passes; one in a JSON key or value does not', () => {
    expect(xmlRules.map((rule) => rule.id).sort()).toEqual([
      'generic-password-xml-attribute',
      'generic-secret-xml-attribute',
    ]);
    expect(opens('<string name="api_token">')).toBe(true);
    expect(opens('<add key = "Api token:x"')).toBe(true);
    expect(opens('{"api_token": "x"}')).toBe(false);
    expect(opens('{"a": "cfg_token_2", "b": 1}')).toBe(false);
    expect(opens('token" value="x"')).toBe(false);
    expect(opens('name=\n"token"')).toBe(false);
    // Outside ASCII, or read back too far: the gate decides.
    expect(opens('"é token"')).toBe(true);
    expect(opens(`"${'a'.repeat(130)}token"`)).toBe(true);
    expect(opens(`=${' '.repeat(130)}"token"`)).toBe(true);
  });

  test('a text’s start is read as a line’s, as tiles of whole lines are', () => {
    expect(opens('token"')).toBe(opens('x\ntoken"'));
    expect(opens('"token"')).toBe(opens('x\n"token"'));
    expect(opens(' "token"')).toBe(opens('x\n "token"'));
  });

  test('the rules find the same secrets with the look back as with their gate regex alone', () => {
    const attributes = namedTexts({
      before: ['<add key="', '<string name = "', 'name=\t"', '{"', '"a": "', '"', ' ', '=', ':', '\n', 'é'],
      name: ['a', 'Z', '7', '_', '.', '-', ' ', ':', 'db'],
      keywords: ['token', 'password', 'secret', 'api_key', 'pw'],
      rest: ['a', '_', '1', ' '],
      after: [
        '" value="Zq8pLr4TWm3xYv7K" />',
        '">Kestrel-92!x</string>',
        '" type="x">Zq8pLr4TWm3xYv7K</',
        '": "Zq8pLr4TWm3xYv7K"',
        '", "b": 1',
        '"',
      ],
      paths: ['web.config', 'res/values/strings.xml', 'settings.json', 'src/app.ts'],
    });
    expectLookBackFindsTheSame(xmlRules, attributes);
  });
});
