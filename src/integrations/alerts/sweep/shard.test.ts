import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { inShard, parseShard, shardOfAlert } from './shard.js';

const alert = fc.record({ repo: fc.constantFrom('o/a', 'o/b', 'x/y'), number: fc.integer({ min: 1, max: 1e6 }) });

describe('alert shards', () => {
  test('every alert is in exactly one shard, and new alerts never move existing ones', () => {
    fc.assert(
      fc.property(fc.array(alert), fc.array(alert), fc.integer({ min: 1, max: 16 }), (before, added, count) => {
        const owners = before.map((a) => shardOfAlert(a.repo, a.number, count));
        for (const a of before) {
          const taken = Array.from({ length: count }, (_, i) => inShard(a.repo, a.number, { index: i + 1, count }));
          expect(taken.filter(Boolean)).toHaveLength(1);
        }
        const all = [...before, ...added];
        expect(all.slice(0, before.length).map((a) => shardOfAlert(a.repo, a.number, count))).toEqual(owners);
      }),
    );
  });

  test('--shard accepts I/N with 1 ≤ I ≤ N and names the flag otherwise', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    for (const bad of ['0/4', '5/4', '1/0', 'x', '1/2/3', '-1/2']) {
      expect(() => parseShard(bad)).toThrow(/^--shard: expected I\/N/);
    }
  });
});
