import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { prefixTestOf } from './provider-prefixes.js';
import type { SecretRule } from './rule.js';
import { builtinRules } from './rules/index.js';

/** The test as it was first written: every rule's samples made at once, the prefixes joined into one pattern. */
function everySampleMade(rules: readonly SecretRule[]): (value: string) => boolean {
  const prefixes = new Set<string>();
  for (const rule of rules) {
    if (rule.generic || rule.nameWords) continue;
    for (const keyword of rule.keywords) {
      if (!/^[A-Za-z][A-Za-z0-9_.-]{0,20}[_.-]$/.test(keyword)) continue;
      if (rule.samples.match.some((sample) => sample.startsWith(keyword))) prefixes.add(keyword);
    }
  }
  const escaped = [...prefixes].map((prefix) => prefix.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'));
  const pattern = new RegExp(`^(?:${escaped.join('|')})[^]{0,15}$`);
  return (value) => pattern.test(value);
}

describe('provider prefixes', () => {
  const keywords = [...new Set(builtinRules.flatMap((rule) => rule.keywords))];
  const lazy = prefixTestOf(builtinRules);
  const whole = everySampleMade(builtinRules);

  test('the same answer as with every rule sample made, for any value', () => {
    const value = fc.oneof(
      fc.tuple(fc.constantFrom(...keywords), fc.string({ maxLength: 20 })).map(([keyword, rest]) => keyword + rest),
      fc
        .tuple(fc.constantFrom(...keywords), fc.string({ maxLength: 3 }), fc.string({ maxLength: 18 }))
        .map(([keyword, before, rest]) => before + keyword + rest),
      fc.string({ maxLength: 40 }),
    );
    fc.assert(
      fc.property(value, (text) => lazy(text) === whole(text)),
      { numRuns: 3000 },
    );
  });

  test('a short value after a provider prefix is one, a long one or a generic rule keyword is not', () => {
    expect(lazy('glpat-abc123')).toBe(true);
    expect(lazy(`glpat-${'a'.repeat(15)}`)).toBe(true);
    expect(lazy(`glpat-${'a'.repeat(16)}`)).toBe(false);
    expect(lazy('password-abc')).toBe(whole('password-abc'));
    expect(lazy('')).toBe(false);
  });

  test('no rule with such a keyword: nothing is a prefix', () => {
    expect(prefixTestOf([])('glpat-abc')).toBe(false);
  });
});
