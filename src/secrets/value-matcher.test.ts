import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { knownValueSpans, rememberFoundSecret, resetKnownValues } from './known-values.js';
import { KEY, ValueMatcher } from './value-matcher.js';

/** What the matcher replaces: one alternation of every value, longest first. */
function alternation(values: readonly string[], text: string) {
  const sorted = [...new Set(values)].sort((a, b) => b.length - a.length);
  if (sorted.length === 0) return [];
  const regex = new RegExp(sorted.map((value) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  return [...text.matchAll(regex)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
    value: match[0],
  }));
}

describe('ValueMatcher', () => {
  // A small alphabet makes values share prefixes, contain each other and overlap in the text.
  const piece = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '=', 'é', '😀'), minLength: 0, maxLength: 14 });
  const value = piece.map((rest) => `abcab${rest}`).filter((text) => text.length >= KEY);

  test('finds exactly what a longest-first alternation of the values finds', () => {
    fc.assert(
      fc.property(
        fc.array(value, { maxLength: 12 }),
        fc.array(fc.oneof(piece, value), { maxLength: 20 }),
        (values, parts) => {
          const text = parts.join('');
          const matcher = new ValueMatcher();
          for (const item of values) matcher.add(item);
          expect(matcher.find(text)).toEqual(alternation(values, text));
        },
      ),
      { numRuns: 3000 },
    );
  });

  test('values shorter than the key are not filed', () => {
    const matcher = new ValueMatcher();
    matcher.add('short');
    expect(matcher.size).toBe(0);
    expect(matcher.find('a short text')).toEqual([]);
  });

  test('masking as findings arrive costs linear time in their number (no rebuild per new secret)', () => {
    // A run reports findings one by one, and each report line is masked against every secret found so far.
    const secrets = Array.from({ length: 4000 }, (_, i) => `s3cr3t-${i.toString(36)}-${(i * 7919).toString(36)}`);
    const line = `finding in src/config.ts line 12: value ${'x'.repeat(120)} (rule generic-secret)`;
    const cpuOf = (count: number) => {
      resetKnownValues();
      const started = process.cpuUsage();
      for (const secret of secrets.slice(0, count)) {
        rememberFoundSecret(secret);
        knownValueSpans(line);
      }
      const spent = process.cpuUsage(started);
      return spent.user + spent.system;
    };
    cpuOf(500);
    // Linear: 4x. Rebuilding one alternation of every secret on each new one: 16x. On a busy machine one timing can
    // still come out slow (a core shared with other work runs fewer instructions a second), either of the two: the
    // fastest of up to three of each, taken in turn, is what the masking costs, and a rebuild per secret is slow every
    // time.
    let few = Number.POSITIVE_INFINITY;
    let many = Number.POSITIVE_INFINITY;
    for (let attempt = 0; attempt < 3 && !(many < 8 * few + 20_000); attempt++) {
      few = Math.min(few, cpuOf(1000));
      many = Math.min(many, cpuOf(4000));
    }
    resetKnownValues();
    expect(many).toBeLessThan(8 * few + 20_000);
  });
});
