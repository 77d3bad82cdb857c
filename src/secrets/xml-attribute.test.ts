import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { GATES, inAttributeValue } from './generic-gates.js';
import type { SecretRule } from './rule.js';
import { builtinRules } from './rules/index.js';
import { SecretScanner } from './scanner.js';

const xmlRules = builtinRules.filter((rule) => rule.gate === GATES.xmlAttribute) as SecretRule[];
/** The same rule with its gate's regex alone: no check in code. */
const plain = (rule: SecretRule): SecretRule => ({ ...rule, gate: new RegExp(rule.gate!.source, rule.gate!.flags) });

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

  const withCheck = new SecretScanner(xmlRules);
  const withoutCheck = new SecretScanner(xmlRules.map(plain));
  const attributes = fc
    .tuple(
      fc.array(
        fc.constantFrom('<add key="', '<string name = "', 'name=\t"', '{"', '"a": "', '"', ' ', '=', ':', '\n', 'é'),
        { maxLength: 3 },
      ),
      fc.array(fc.constantFrom('a', 'Z', '7', '_', '.', '-', ' ', ':', 'db'), { maxLength: 3 }),
      fc.constantFrom('token', 'password', 'secret', 'api_key', 'pw'),
      fc.array(fc.constantFrom('a', '_', '1', ' '), { maxLength: 2 }),
      fc.constantFrom(
        '" value="Zq8pLr4TWm3xYv7K" />',
        '">Kestrel-92!x</string>',
        '" type="x">Zq8pLr4TWm3xYv7K</',
        '": "Zq8pLr4TWm3xYv7K"',
        '", "b": 1',
        '"',
      ),
      fc.constantFrom('web.config', 'res/values/strings.xml', 'settings.json', 'src/app.ts'),
    )
    .map(([before, name, keyword, rest, after, path]) => ({
      text: `${before.join('')}${name.join('')}${keyword}${rest.join('')}${after}\n`,
      path,
    }));

  test('the rules find the same secrets with the look back as with their gate regex alone', () => {
    let found = 0;
    fc.assert(
      fc.property(attributes, ({ text, path }) => {
        const of = (scanner: SecretScanner) =>
          scanner.scanText(text, { path }).map((item) => `${item.rule.id} ${item.start} ${item.secret}`);
        const expected = of(withoutCheck);
        found += expected.length;
        expect(of(withCheck)).toEqual(expected);
      }),
      { numRuns: 5000 },
    );
    // The text must hold findings, or the property proves nothing.
    expect(found).toBeGreaterThan(100);
  });
});
