import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { compileRule } from './compiled-rule.js';
import { gateReachOf } from './gate-reach.js';
import { builtinRules } from './rules/index.js';

/** Every built-in gate with a reach, sticky as the scanner tests it. */
const bounded = [...new Set(builtinRules.map((rule) => rule.gate).filter((gate) => gate !== undefined))]
  .map((gate) => ({ gate: new RegExp(gate.source, `${gate.flags.replace('g', '')}y`), reach: gateReachOf(gate) }))
  .filter(({ reach }) => reach >= 0);

/** Text near what gates look for: name and token characters, separators, quotes, blanks, line ends, non-ASCII. */
const piece = fc.constantFrom(
  'a',
  'Z',
  '0',
  '9',
  '_',
  '-',
  '.',
  '/',
  '+',
  '=',
  ':',
  '@',
  '"',
  "'",
  ' ',
  '\t',
  '\n',
  '\r',
  '!',
  '?',
  '$',
  '%',
  'x',
  'é',
  '€',
  '😀',
  'Basic ',
  'Token ',
  'pat_',
  'GCSqGSIb3DQEH',
  'AKIA',
  'eyJ',
  '://user:pw@',
);
const text = fc
  .array(fc.oneof(piece, fc.stringMatching(/^[A-Za-z0-9]{1,60}$/)), { maxLength: 80 })
  .map((parts) => parts.join(''));

function testsAt(gate: RegExp, on: string, at: number): boolean {
  gate.lastIndex = at;
  return gate.test(on);
}

describe('gateReachOf', () => {
  test('reaches of simple regexes', () => {
    expect(gateReachOf(/[^\s:/@'"`<>]{0,100}:/)).toBe(101);
    expect(gateReachOf(/(?:[a-f0-9]{32})(?![A-Za-z0-9_-])/)).toBe(33);
    expect(gateReachOf(/a|bc(?:d{2,3})?/)).toBe(5);
    expect(gateReachOf(/(?<name>ab)c?/)).toBe(3);
    expect(gateReachOf(/\x41\t./)).toBe(3);
    for (const unbounded of [
      /a*/,
      /a+/,
      /a{2,}/,
      /^a/,
      /a$/,
      /\ba/,
      /(?<=a)b/,
      /(?<!a)b/,
      /(a)\1/,
      /a/u,
      /a/m,
      /\p{L}/u,
    ])
      expect(gateReachOf(unbounded)).toBe(-1);
  });

  test('most built-in regex gates have one', () => {
    expect(bounded.length).toBeGreaterThan(100);
  });

  test('a gate with a reach decides alike on the whole text and on its reach (and one unit) from the offset', () => {
    fc.assert(
      fc.property(text, text, fc.nat(200), (before, after, pick) => {
        const whole = before + after;
        const at = Math.min(before.length, whole.length);
        const { gate, reach } = bounded[pick % bounded.length]!;
        expect(testsAt(gate, whole.slice(at, at + reach + 1), 0)).toBe(testsAt(gate, whole, at));
      }),
      { numRuns: 20_000 },
    );
  });

  test('a reach one short of the longest match fails for some text', () => {
    const gate = /[A-Za-z0-9]{12}!/y;
    const reach = gateReachOf(gate);
    const whole = `xx${'a'.repeat(12)}!`;
    expect(testsAt(gate, whole.slice(2, 2 + reach), 0)).toBe(true);
    expect(testsAt(gate, whole.slice(2, 2 + reach - 1), 0)).toBe(false);
  });

  test('the scanner keeps a reach only for a gate that is its regex alone', () => {
    for (const [index, rule] of builtinRules.entries()) {
      const compiled = compileRule(rule, index);
      if (compiled.gateShape !== undefined || compiled.gateCheck !== undefined) expect(compiled.gateReach).toBe(-1);
      else if (rule.gate !== undefined) expect(compiled.gateReach).toBe(gateReachOf(rule.gate));
    }
  });
});
