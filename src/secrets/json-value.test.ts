import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { namedByNameKey } from './env-entry.js';
import { gateCheckOf } from './gate-checks.js';
import { GATES, inAttributeValue } from './generic-gates.js';
import { inOrdinaryJsonValue, isRefutedInJsonValue } from './json-value.js';
import { nameRunEnd, quotedCallArgument } from './name-gate.js';
import { inNameField, SPLIT_FIELD_GATE } from './split-fields.js';

const at = (text: string, word: string) => inOrdinaryJsonValue(text, text.lastIndexOf(word) + word.length);

describe('one look back at a hit inside a JSON value', () => {
  test('a value under an ordinary key; not under name or key, nor a key, a call or an attribute', () => {
    expect(at('{"token_2": "cfg_auth_token_2", "x": 1}', 'auth_token')).toBe(true);
    expect(at('"a" :\t"my.api-token"', 'token')).toBe(true);
    expect(at('{"name": "api_token", "value": 1}', 'token')).toBe(false);
    expect(at('{"hostname": "api_token",', 'token')).toBe(false);
    expect(at('{"ParameterKey": "api_token",', 'token')).toBe(false);
    expect(at('{"api_token": "x",', 'token')).toBe(false);
    expect(at('f("api_token", "x")', 'token')).toBe(false);
    expect(at('name="api_token"', 'token')).toBe(false);
    expect(at('"a": "my token",', 'token')).toBe(false);
    expect(at(`"a": "${'b'.repeat(120)}token",`, 'token')).toBe(false);
    expect(at('"a":     "token",', 'token')).toBe(false);
  });

  test('the split-field, env-entry and XML-attribute checks are the ones marked', () => {
    expect(isRefutedInJsonValue(gateCheckOf(SPLIT_FIELD_GATE)!)).toBe(true);
    expect(isRefutedInJsonValue(gateCheckOf(GATES.k8sEnv)!)).toBe(true);
    expect(isRefutedInJsonValue(gateCheckOf(GATES.xmlAttribute)!)).toBe(true);
    expect(gateCheckOf(GATES.assignment)).toBeUndefined();
  });

  const texts = fc
    .array(
      fc.constantFrom(
        '"',
        "'",
        ':',
        ' ',
        '\t',
        ',',
        '(',
        '=',
        '{',
        '<',
        '>',
        '\n',
        'é',
        'name',
        'Name',
        'KEY',
        'key',
        'parameterkey',
        'variable',
        'token',
        'api_',
        'cfg',
        '.',
        '-',
        '7',
        '"a": "',
        '"name": "',
        '"user_key" : "',
      ),
      { maxLength: 24 },
    )
    .map((parts) => parts.join(''));

  test('where it holds, the checks it stands for are false (random text)', () => {
    let held = 0;
    fc.assert(
      fc.property(texts, (text) => {
        for (let after = 0; after <= text.length; after++) {
          if (!inOrdinaryJsonValue(text, after)) continue;
          held++;
          expect(inNameField(text, after), `${JSON.stringify(text)} at ${after}`).toBe(false);
          expect(namedByNameKey(text, after), `${JSON.stringify(text)} at ${after}`).toBe(false);
          expect(quotedCallArgument(text, after, nameRunEnd(text, after))).toBe(false);
          expect(inAttributeValue(text, after)).toBe(false);
        }
      }),
      { numRuns: 20000 },
    );
    // The text must hold such hits, or the property proves nothing.
    expect(held).toBeGreaterThan(1000);
  });
});
