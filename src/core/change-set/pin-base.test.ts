import { describe, expect, test } from 'vitest';
import type { TempRepo } from '../../../test/support/git-repo.js';
import { useIsolatedRepos } from '../../../test/support/isolated-repos.js';
import { createChangeSet } from './index.js';

const { repoWith } = useIsolatedRepos();

const head = async (repo: TempRepo) => (await repo.git('rev-parse', 'HEAD')).trim();

describe('the base is held to trusted commits', () => {
  test('without trusted commits (no pinning asked, or a first run) the resolved base stands', async () => {
    const repo = await repoWith({ 'a.txt': '1\n' });
    await repo.write('a.txt', '2\n');
    const tip = await repo.commit('second');
    expect((await createChangeSet({ cwd: repo.root })).base).toMatchObject({ commit: tip, source: 'default-branch' });
    expect((await createChangeSet({ cwd: repo.root, trustedCommits: [] })).base.source).toBe('default-branch');
  });

  test('commits on main after the last trusted commit are the change; a trusted HEAD leaves nothing', async () => {
    const repo = await repoWith({ 'a.txt': '1\n' });
    const first = await head(repo);
    await repo.write('b.txt', 'b\n');
    const second = await repo.commit('b');
    const changeSet = await createChangeSet({ cwd: repo.root, trustedCommits: [first] });
    expect(changeSet.base).toMatchObject({ commit: first, source: 'pinned', pinned: { resolvedCommit: second } });
    expect(changeSet.base.pinned?.unvalidated).toBe(1);
    expect(changeSet.files.map((file) => file.path)).toEqual(['b.txt']);
    expect(changeSet.hasCommits).toBe(true);
    const validated = await createChangeSet({ cwd: repo.root, trustedCommits: [first, second] });
    expect(validated.base).toMatchObject({ commit: second, source: 'default-branch' });
    expect(validated.hasCommits).toBe(false);
  });

  test('--base is honoured as given; a trusted commit git no longer has is ignored', async () => {
    const repo = await repoWith({ 'a.txt': '1\n' });
    const first = await head(repo);
    await repo.write('b.txt', 'b\n');
    await repo.commit('b');
    const flagged = await createChangeSet({ cwd: repo.root, base: 'HEAD', trustedCommits: [first] });
    expect(flagged.base.source).toBe('flag');
    const gone = '1'.repeat(40);
    const pinned = await createChangeSet({ cwd: repo.root, trustedCommits: [gone, first] });
    expect(pinned.base).toMatchObject({ commit: first, source: 'pinned' });
  });

  test('a fetch buried under more than 50 later moves of the base ref still holds a first run to it', async () => {
    const repo = await repoWith({ 'a.txt': '1\n' });
    await repo.publish();
    const fetched = await head(repo);
    await repo.write('a.txt', 'SECRET\n');
    const moved = await repo.commit('not fetched');
    // An agent moving the base ref onto its own commit, again and again (each move is one reflog entry).
    for (let move = 0; move < 26; move += 1) {
      await repo.git('update-ref', 'refs/remotes/origin/main', fetched);
      await repo.git('update-ref', 'refs/remotes/origin/main', moved);
    }
    const changeSet = await createChangeSet({ cwd: repo.root, trustedCommits: [] });
    expect(changeSet.base).toMatchObject({ commit: fetched, source: 'pinned' });
    expect(changeSet.files.map((file) => file.path)).toEqual(['a.txt']);
  });

  // A reflog line is the agent's to write, and a fetch from the repository itself is not a merge: neither moves a base.
  test.each([
    ['a fetch from the repository itself', ['fetch', '--quiet', '.', 'HEAD:refs/remotes/origin/main']],
    [
      'a reflog entry that says "fetch"',
      ['update-ref', '-m', 'fetch: fast-forward', 'refs/remotes/origin/main', 'HEAD'],
    ],
    ['a real fetch of the upstream that holds the commit', ['fetch', '--quiet', 'origin']],
  ])('%s does not move a base that signed history holds', async (_name, move) => {
    const repo = await repoWith({ 'a.txt': '1\n' });
    await repo.publish();
    const validated = await head(repo);
    await repo.write('a.txt', 'SECRET\n');
    const own = await repo.commit('own work');
    if (move[0] === 'fetch' && move[2] === 'origin') {
      await repo.git('push', '--quiet', 'origin', 'HEAD:refs/heads/main');
    }
    await repo.git(...move);
    expect((await repo.git('rev-parse', 'origin/main')).trim()).toBe(own);
    const changeSet = await createChangeSet({ cwd: repo.root, trustedCommits: [validated] });
    expect(changeSet.base).toMatchObject({ commit: validated, source: 'pinned', pinned: { resolvedCommit: own } });
    expect(changeSet.files.map((file) => file.path)).toEqual(['a.txt']);
    // A passing run of that HEAD (signed history) is what moves it.
    const passed = await createChangeSet({ cwd: repo.root, trustedCommits: [own, validated] });
    expect(passed.base).toMatchObject({ commit: own, source: 'upstream' });
  });

  test('a history that shares nothing with the trusted commits is all change', async () => {
    const repo = await repoWith({ 'a.txt': '1\n' });
    const first = await head(repo);
    await repo.git('checkout', '--quiet', '--orphan', 'other');
    await repo.write('c.txt', 'c\n');
    await repo.commit('unrelated');
    const changeSet = await createChangeSet({ cwd: repo.root, trustedCommits: [first] });
    expect(changeSet.base).toMatchObject({ ref: null, commit: null, source: 'pinned' });
    expect(changeSet.files.map((file) => file.path).sort()).toEqual(['a.txt', 'c.txt']);
  });
});
