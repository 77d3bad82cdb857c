import { describe, expect, test } from 'vitest';
import type { FixItem } from '../payload-schemas.js';
import { commitGroups } from './commit-groups.js';

const item = (threadId: string, files: string[] | undefined, extra: Partial<FixItem> = {}): FixItem => ({
  threadId,
  classification: 'valid',
  fixSummary: `fixed ${threadId}`,
  verification: ['npm test'],
  checksRun: [],
  resolveRequested: true,
  ...(files ? { files } : {}),
  ...extra,
});

describe('commitGroups: one commit per group of valid threads sharing a file', () => {
  test('threads chained through shared files are one group; the rest their own, in payload order', () => {
    const groups = commitGroups(
      [item('T1', ['a.ts']), item('T2', ['b.ts']), item('T3', ['c.ts', 'a.ts']), item('T4', ['b.ts', 'c.ts'])],
      7,
    );
    expect(groups.map((g) => [g.threadIds, g.files])).toEqual([
      [
        ['T1', 'T2', 'T3', 'T4'],
        ['a.ts', 'b.ts', 'c.ts'],
      ],
    ]);
    expect(commitGroups([item('T1', ['a.ts']), item('T2', ['b.ts'])], 7).map((g) => g.threadIds)).toEqual([
      ['T1'],
      ['T2'],
    ]);
  });

  test('the message names every thread and the PR, with each fix summary', () => {
    const [group] = commitGroups([item('T1', ['a.ts']), item('T2', ['a.ts'])], 7);
    expect(group?.message).toBe('Address review threads T1, T2 (PR #7)\n\n- T1: fixed T1\n- T2: fixed T2\n');
  });

  test('already committed, other classifications and items without files are left alone', () => {
    expect(
      commitGroups(
        [
          item('T1', ['a.ts'], { commitSha: 'abcdef1' }),
          item('T2', ['a.ts'], { classification: 'needs_human' }),
          item('T3', undefined),
        ],
        7,
      ),
    ).toEqual([]);
  });
});
