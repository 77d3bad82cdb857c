import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { superLinearReason } from './redos.js';
import { builtinRules } from './rules/index.js';

describe('superLinearReason', () => {
  test.each([
    ['(a+)+', 'nested quantifiers in (a+)+'],
    ['(a*)*', 'nested quantifiers in (a*)*'],
    ['(a|a)*', 'alternatives that can match the same text in (a|a)*'],
    ['(\\w+\\s?)*', 'nested quantifiers in (\\w+\\s?)*'],
    ['^(?:[a-z]+)+$', 'nested quantifiers in (?:[a-z]+)+'],
    ['token=(?<v>(?:\\\\.|[^"])*)"', 'alternatives that can match the same text in (?:\\\\.|[^"])*'],
    ['((ab)*c?)+', 'nested quantifiers in ((ab)*c?)+'],
    ['(a|ab){2,}', 'alternatives that can match the same text in (a|ab){2,}'],
    ['(?:\\d\\d{1,40})+', 'nested quantifiers in (?:\\d\\d{1,40})+'],
    ['(?:\\d+)*z', 'nested quantifiers in (?:\\d+)*'],
    ['([A-Z]+)+', 'nested quantifiers in ([A-Z]+)+'],
  ])('flags %s', (source, reason) => {
    expect(superLinearReason(source)).toBe(reason);
  });

  test('case-insensitive patterns fold letters before comparing', () => {
    expect(superLinearReason('(?:[a-z]+A)+')).toBeNull();
    expect(superLinearReason('(?:[a-z]+A)+', 'i')).toBe('nested quantifiers in (?:[a-z]+A)+');
  });

  test.each([
    ['\\bacme_[a-z0-9]{32}\\b'],
    ['([a-z]+\\.)+com'],
    ['(?:[0-9]+,)*[0-9]+'],
    ['(?:a|b)+'],
    ['(a+){2}'],
    ['(?:x\\d{1,40})+'], // each repetition must start at an `x` the digits cannot match
    ['(?:\\\\.|[^"\\\\])*'],
    ['[\\w.-]{0,50}?(?:dropbox)(?:[ \\t\\w.-]{0,20})[\\s\'"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)([a-z0-9]{15})'],
    ['(?:-----BEGIN[ A-Z]{0,40}KEY-----)[\\s\\S]{64,4096}?-----END'],
    ['(\\w+)\\1+'], // back-references: not analysed, not flagged
    ['x{2,3}{'], // a brace that is not a quantifier is a literal
    ['(?<=foo)bar(?!baz)'],
    ['[\\u0000-\\uffff]+'],
  ])('leaves %s alone', (source) => {
    expect(superLinearReason(source)).toBeNull();
  });

  test('no built-in rule is flagged (the heuristic stays quiet on patterns proven linear)', () => {
    const flagged = builtinRules
      .map((rule) => ({ id: rule.id, reason: superLinearReason(rule.pattern.source, rule.pattern.flags) }))
      .filter((item) => item.reason !== null);
    expect(flagged).toEqual([]);
  });

  test('never throws on any pattern JavaScript accepts (fast-check)', () => {
    const pieces = [
      'a',
      'b',
      '\\w',
      '\\s',
      '\\d',
      '.',
      '[a-z]',
      '[^x]',
      '(',
      ')',
      '(?:',
      '|',
      '+',
      '*',
      '?',
      '{2,}',
      '{1,3}',
      '^',
      '$',
      '\\b',
      '\\\\',
      '-',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 30 }), (parts) => {
        const source = parts.join('');
        try {
          new RegExp(source);
        } catch {
          return;
        }
        const reason = superLinearReason(source);
        expect(reason === null || typeof reason === 'string').toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
