import { describe, expect, test } from 'vitest';
import { howBaseWasChosen, pinnedBaseLine, remoteBranchOf, whatMovesBase } from './describe-base.js';
import type { ChangeSetBase } from './types.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const PASSING = 'a passing `tollgate run` (the commits it validated are trusted)';

describe('the base in words', () => {
  test.each<[string, ChangeSetBase, string, string]>([
    [
      'an upstream',
      { ref: 'origin/main', commit: A, source: 'upstream', refName: 'refs/remotes/origin/main' },
      "the merge-base of HEAD with `origin/main`, the branch's upstream",
      `${PASSING}; a fetch alone never moves it: after one, \`origin/main\` is the base again once a run passes`,
    ],
    [
      'a local default branch',
      { ref: 'main', commit: A, source: 'default-branch', refName: 'refs/heads/main' },
      'the merge-base of HEAD with `main`, the default branch (the branch has no upstream)',
      `${PASSING}; \`main\` follows no remote branch`,
    ],
    ['--base', { ref: 'HEAD~2', commit: A, source: 'flag' }, 'named by `--base HEAD~2`', 'the `--base` you name'],
    [
      'pinned under an upstream',
      {
        ref: 'aaaaaaaaaaaa',
        commit: A,
        source: 'pinned',
        pinned: {
          resolvedRef: 'origin/main',
          resolvedCommit: B,
          unvalidated: 2,
          resolvedRefName: 'refs/remotes/origin/main',
        },
      },
      'the newest commit tollgate trusts; the 2 commits after it up to `origin/main` (bbbbbbbbbb) no passing run validated, so they are part of the change',
      `${PASSING}; a fetch alone never moves it: after one, \`origin/main\` is the base again once a run passes`,
    ],
  ])('%s', (_name, base, how, moves) => {
    expect(howBaseWasChosen(base)).toBe(how);
    expect(whatMovesBase(base)).toBe(moves);
  });

  test('the report’s line about a pinned base, and none for a base that is not pinned', () => {
    const pinned: ChangeSetBase = {
      ref: 'aaaaaaaaaaaa',
      commit: A,
      source: 'pinned',
      pinned: { resolvedRef: 'main', resolvedCommit: B, unvalidated: 1, resolvedRefName: 'refs/heads/main' },
    };
    expect(remoteBranchOf(pinned)).toBeNull();
    expect(pinnedBaseLine(pinned)).toBe(
      `Base \`aaaaaaaaaa\`: the newest commit tollgate trusts; the 1 commit after it up to \`main\` (bbbbbbbbbb) no passing run validated, so it is part of the change. Moved by ${PASSING}; \`main\` follows no remote branch.`,
    );
    expect(pinnedBaseLine({ ref: 'main', commit: A, source: 'default-branch' })).toBeNull();
  });
});
