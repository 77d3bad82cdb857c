import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { gateCheckOf } from './gate-checks.js';
import { GATES } from './generic-gates.js';
import { builtinRules } from './rules/index.js';
import { base64Of, fakeToken, URL_SAFE } from './sample-tokens.js';
import { SecretScanner } from './scanner.js';

const discordRule = builtinRules.find((rule) => rule.id === 'discord-bot-token-bare')!;

describe('gates with a check in code', () => {
  test('the XML attribute check never turns down text its gate regex matches', () => {
    const check = gateCheckOf(GATES.xmlAttribute)!;
    const gate = new RegExp(GATES.xmlAttribute.source, `${GATES.xmlAttribute.flags}y`);
    const pieces = ['a', '_', '"', ' ', '\t', 'value', '=', '>', '<', '\n', ':', 'x'.repeat(39), 'y'.repeat(79)];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 10 }), (parts) => {
        const text = `name="api_key${parts.join('')}`;
        const after = text.indexOf('api_key') + 'api_key'.length;
        gate.lastIndex = after;
        if (gate.test(text)) expect(check(text, after)).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  test('the XML attribute check gives the same verdicts asked in order along one text as asked afresh', () => {
    const check = gateCheckOf(GATES.xmlAttribute)!;
    const pieces = ['a', '"', ' ', '>', '<', '\n', ':', ', ', 'api_key', 'x'.repeat(39), 'y'.repeat(90)];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 30 }), (parts) => {
        const text = parts.join('');
        const afresh = [...text].map((_, after) => {
          check('<reset>', 0);
          return check(text, after);
        });
        expect([...text].map((_, after) => check(text, after))).toEqual(afresh);
      }),
      { numRuns: 2000 },
    );
  });

  test('a JSON key opens no XML attribute window; an Android string or web.config setting does', () => {
    const check = gateCheckOf(GATES.xmlAttribute)!;
    const at = (text: string) => check(text, text.indexOf('api_key') + 'api_key'.length);
    expect(at('  "api_key_1": "value 1",\n  "x": "<b>"\n')).toBe(false);
    expect(at('<string name="api_key">abc</string>')).toBe(true);
    expect(at('<add key="api_key" value="abc" />')).toBe(true);
    expect(at(`{${'"api_key_1": "value 1", '.repeat(200)}"x": "<b>"}`)).toBe(false);
    expect(at(`<entry key="api_key"${' '.repeat(0)}type="x">`)).toBe(true);
  });

  test('the bare Discord token: found wherever it stands alone, its gate stops every other dot', () => {
    const token = `${base64Of('1184420397162561536').replace(/=+$/, '')}.${fakeToken('', 6, URL_SAFE)}.${fakeToken('', 38, URL_SAFE)}`;
    const scanner = new SecretScanner([discordRule]);
    const check = gateCheckOf(discordRule.gate)!;
    const around = ['', ' ', '\n', '"', "'", '(', '=', 'a', '.', '-', 'x.y', 'M'.repeat(30)];
    fc.assert(
      fc.property(fc.constantFrom(...around), fc.constantFrom(...around), (before, after) => {
        const text = `${before}${token}${after}`;
        const expected = discordRule.pattern.test(text) ? [token] : [];
        expect(scanner.scanText(text, { path: 'notes.txt' }).map((item) => item.secret)).toEqual(expected);
      }),
    );
    const dots = (text: string) => [...text.matchAll(/\./g)].filter((dot) => check(text, dot.index + 1)).length;
    expect(dots(`this.config.value = a.b.c; ${'M'.repeat(24)}.abcdef.x`)).toBe(1);
    expect(dots('See https://example.com/a.b. Then call foo.bar() and baz.qux.')).toBe(0);
  });
});
