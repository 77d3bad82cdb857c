import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { SecretRule } from './rule.js';
import { type Found, resolveOverlaps, vetoTest } from './scan-results.js';

/** The pairwise versions these replace (O(n²)): the reference the fast ones must agree with exactly. */
function pairwiseResolve(found: Found[]): Found[] {
  if (found.length < 2) return found;
  const rank = (item: Found) => (item.rule.generic ? 1_000_000 : 0) + item.order;
  const ranked = [...found].sort((a, b) => rank(a) - rank(b) || a.start - b.start);
  const kept: Found[] = [];
  for (const candidate of ranked) {
    if (kept.some((other) => candidate.start < other.end && other.start < candidate.end)) continue;
    kept.push(candidate);
  }
  return kept.sort((a, b) => a.start - b.start);
}
const pairwiseVetoed = (item: Found, vetoed: ReadonlyArray<{ start: number; end: number }>) =>
  item.rule.generic === true && vetoed.some((span) => item.start < span.end && span.start < item.end);

const rules = [0, 1, 2, 3].map((index) => ({ id: `rule-${index}`, generic: index >= 2 }) as unknown as SecretRule);
const found = fc.array(
  fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 30 })).map(
    ([rule, start, length]): Found => ({
      rule: rules[rule]!,
      order: rule,
      secret: 'x'.repeat(length),
      start,
      end: start + length,
    }),
  ),
  { maxLength: 60 },
);
const spans = fc.array(
  fc.tuple(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 30 })).map(([start, length]) => ({
    start,
    end: start + length,
  })),
  { maxLength: 20 },
);

describe('overlap resolution in O(n log n)', () => {
  test('keeps exactly what the pairwise comparison kept, in the same order', () => {
    fc.assert(
      fc.property(found, (items) => {
        expect(resolveOverlaps([...items])).toEqual(pairwiseResolve([...items]));
      }),
      { numRuns: 2000 },
    );
  });

  test('vetoes exactly what the pairwise comparison vetoed', () => {
    fc.assert(
      fc.property(found, spans, (items, vetoed) => {
        const vetoedBy = vetoTest(vetoed);
        expect(items.map(vetoedBy)).toEqual(items.map((item) => pairwiseVetoed(item, vetoed)));
      }),
      { numRuns: 2000 },
    );
  });

  test('32k findings in one text cost well under 16x the time of 8k (what the pairwise way cost)', () => {
    const many = (count: number): Found[] =>
      Array.from({ length: count }, (_, index) => ({
        rule: rules[index % 4]!,
        order: index % 4,
        secret: 'x'.repeat(20),
        // Neighbours overlap, so both kept and dropped findings are many.
        start: index * 15,
        end: index * 15 + 20,
      }));
    const inputs = { small: many(8000), large: many(32_000) };
    // CPU time, not wall time (other processes on a loaded machine take the wall clock, not this thread's CPU), and
    // the same 64k findings resolved at each size so both totals are long enough for the clock's resolution. A core
    // shared with other work runs fewer instructions a second, so one timing of either size can come out slow: the
    // fastest of up to five of each, taken in turn, is what resolving costs, and a pairwise way is slow every time.
    const cpuOf = (size: 'small' | 'large'): number => {
      const times = size === 'small' ? 8 : 2;
      const started = process.cpuUsage();
      for (let i = 0; i < times; i++) resolveOverlaps(inputs[size]);
      const used = process.cpuUsage(started);
      return used.user + used.system;
    };
    cpuOf('small');
    const cpu = { small: Number.POSITIVE_INFINITY, large: Number.POSITIVE_INFINITY };
    for (let attempt = 0; attempt < 5 && !(cpu.large < 2 * cpu.small); attempt++) {
      cpu.small = Math.min(cpu.small, cpuOf('small'));
      cpu.large = Math.min(cpu.large, cpuOf('large'));
    }
    // Per finding, linearithmic costs about the same at both sizes (32k: < 4x the time of 8k); pairwise cost 4x.
    expect(cpu.large / cpu.small).toBeLessThan(2);
  });
});
