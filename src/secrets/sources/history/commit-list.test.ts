import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { commitSlices, ParentListing } from './commit-list.js';

const id = (n: number) => n.toString(16).padStart(40, '0');

/** `rev-list --parents` lines: every third commit a merge (every ninth an octopus), the last a root commit. */
function listing(commits: number): { text: string; merges: string[]; others: string[] } {
  const merges: string[] = [];
  const others: string[] = [];
  let text = '';
  for (let n = 1; n <= commits; n++) {
    const parents = n === commits ? [] : n % 9 === 0 ? [n + 1, n + 2, n + 3] : n % 3 === 0 ? [n + 1, n + 2] : [n + 1];
    text += `${[id(n), ...parents.map(id)].join(' ')}\n`;
    (parents.length > 1 ? merges : others).push(id(n));
  }
  return { text, merges, others };
}

function idsOf(slices: ReturnType<typeof commitSlices>, merges: boolean): string[] {
  return slices
    .filter((slice) => slice.merges === merges)
    .flatMap((slice) => slice.input.toString().split('\n').filter(Boolean));
}

describe('the commits of a history scan', () => {
  test('every listed commit lands in exactly one slice, merges apart, in listing order, however the output is cut', () => {
    const { text, merges, others } = listing(1000);
    const bytes = Buffer.from(text);
    fc.assert(
      fc.property(
        fc.array(fc.nat(bytes.length), { maxLength: 20 }),
        fc.integer({ min: 1, max: 4 }),
        (cuts, processes) => {
          const points = [...new Set(cuts)].sort((a, b) => a - b);
          const parsed = new ParentListing();
          let from = 0;
          for (const point of points) {
            parsed.push(bytes.subarray(from, point));
            from = point;
          }
          parsed.push(bytes.subarray(from));
          parsed.end();
          const slices = commitSlices(parsed, processes);
          expect(idsOf(slices, true)).toEqual(merges);
          expect(idsOf(slices, false)).toEqual(others);
          for (const slice of slices)
            expect(slice.input.toString().split('\n').filter(Boolean)).toHaveLength(slice.commits);
          expect(slices.filter((slice) => !slice.merges).length).toBeLessThanOrEqual(processes * 2);
        },
      ),
    );
  });

  test('a last line without its newline still counts, and nothing listed gives no slices', () => {
    const parsed = new ParentListing();
    parsed.push(Buffer.from(`${id(1)} ${id(2)} ${id(3)}\n${id(2)}`));
    parsed.end();
    expect(commitSlices(parsed, 2).map((slice) => [slice.merges, slice.input.toString()])).toEqual([
      [false, `${id(2)}\n`],
      [true, `${id(1)}\n`],
    ]);
    const empty = new ParentListing();
    empty.end();
    expect(commitSlices(empty, 2)).toEqual([]);
  });
});
