import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CommitListing, commitSlices } from './commit-list.js';

const id = (n: number) => n.toString(16).padStart(40, '0');

/** `rev-list` lines, some with their parents after them (`--parents`): every third a merge, the last a root commit. */
function listing(commits: number): { text: string; ids: string[] } {
  const ids: string[] = [];
  let text = '';
  for (let n = 1; n <= commits; n++) {
    const parents = n === commits ? [] : n % 9 === 0 ? [n + 1, n + 2, n + 3] : n % 3 === 0 ? [n + 1, n + 2] : [n + 1];
    text += `${[id(n), ...(n % 2 === 0 ? parents.map(id) : [])].join(' ')}\n`;
    ids.push(id(n));
  }
  return { text, ids };
}

const idsOf = (slices: ReturnType<typeof commitSlices>) =>
  slices.flatMap((slice) => slice.input.toString().split('\n').filter(Boolean));

describe('the commits of a history scan', () => {
  test('every listed commit lands in exactly one slice, merges where they fall, in listing order, however the output is cut', () => {
    const { text, ids } = listing(1000);
    const bytes = Buffer.from(text);
    fc.assert(
      fc.property(
        fc.array(fc.nat(bytes.length), { maxLength: 20 }),
        fc.integer({ min: 1, max: 4 }),
        (cuts, processes) => {
          const points = [...new Set(cuts)].sort((a, b) => a - b);
          const parsed = new CommitListing();
          let from = 0;
          for (const point of points) {
            parsed.push(bytes.subarray(from, point));
            from = point;
          }
          parsed.push(bytes.subarray(from));
          parsed.end();
          const slices = commitSlices(parsed, processes);
          expect(idsOf(slices)).toEqual(ids);
          for (const slice of slices)
            expect(slice.input.toString().split('\n').filter(Boolean)).toHaveLength(slice.commits);
          expect(slices.length).toBeLessThanOrEqual(processes * 2);
        },
      ),
    );
  });

  test('a last line without its newline still counts, a short listing is one slice, nothing listed gives none', () => {
    const parsed = new CommitListing();
    parsed.push(Buffer.from(`${id(1)} ${id(2)} ${id(3)}\n${id(2)}`));
    parsed.end();
    expect(commitSlices(parsed, 2).map((slice) => slice.input.toString())).toEqual([`${id(1)}\n${id(2)}\n`]);
    const empty = new CommitListing();
    empty.end();
    expect(commitSlices(empty, 2)).toEqual([]);
  });
});
