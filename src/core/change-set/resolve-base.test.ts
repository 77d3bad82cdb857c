import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { removeDir, type TempRepo } from '../../../test/support/git-repo.js';
import { useIsolatedRepos } from '../../../test/support/isolated-repos.js';
import { createChangeSet } from './index.js';

const { repoWith, onCleanup } = useIsolatedRepos();

const head = async (repo: TempRepo, rev = 'HEAD') => (await repo.git('rev-parse', rev)).trim();

/** A clone of a repository with one commit on main; runs git in the clone with the origin's private config. */
async function cloneOf(origin: TempRepo): Promise<TempRepo> {
  const root = `${origin.root}-clone`;
  onCleanup(() => removeDir(root));
  await origin.git('clone', '--quiet', origin.root, root);
  return { ...origin, root, git: (...args: string[]) => origin.git('-C', root, ...args) };
}

describe('which base the change set is measured against', () => {
  test('--base names it, and wins over the config', async () => {
    const repo = await repoWith({ 'a.txt': '1\n' });
    const first = await head(repo);
    await repo.write('a.txt', '2\n');
    await repo.commit('second');
    const changeSet = await createChangeSet({ cwd: repo.root, base: 'HEAD~1', configBase: 'HEAD' });
    expect(changeSet.base).toEqual({ ref: 'HEAD~1', commit: first, source: 'flag' });
    expect(changeSet.files.map((f) => [f.path, f.status])).toEqual([['a.txt', 'modified']]);
  });

  test('the config names it when there is no flag (an annotated tag is followed to its commit)', async () => {
    const repo = await repoWith({ 'a.txt': '1\n' });
    const first = await head(repo);
    await repo.git('tag', '-a', 'v1', '-m', 'release');
    await repo.commit('empty');
    const changeSet = await createChangeSet({ cwd: repo.root, configBase: 'v1' });
    expect(changeSet.base).toEqual({ ref: 'v1', commit: first, source: 'config' });
  });

  test('otherwise the merge-base with the upstream', async () => {
    const origin = await repoWith({ 'a.txt': '1\n' });
    const forked = await head(origin);
    const clone = await cloneOf(origin);
    await clone.git('checkout', '--quiet', '-b', 'feature', 'origin/main');
    await clone.git('commit', '--quiet', '--allow-empty', '-m', 'work');
    const changeSet = await createChangeSet({ cwd: clone.root });
    expect(changeSet.base).toEqual({
      ref: 'origin/main',
      commit: forked,
      source: 'upstream',
      refName: 'refs/remotes/origin/main',
    });
  });

  test('or with origin/HEAD when the branch has no upstream', async () => {
    const origin = await repoWith({ 'a.txt': '1\n' });
    const forked = await head(origin);
    const clone = await cloneOf(origin);
    await clone.git('checkout', '--quiet', '--no-track', '-b', 'topic', 'origin/main');
    await clone.git('commit', '--quiet', '--allow-empty', '-m', 'work');
    const changeSet = await createChangeSet({ cwd: clone.root });
    expect(changeSet.base).toEqual({
      ref: 'origin/main',
      commit: forked,
      source: 'default-branch',
      refName: 'refs/remotes/origin/main',
    });
  });

  test.each(['main', 'master'])('or with a local %s branch', async (branch) => {
    const repo = await repoWith({ 'a.txt': '1\n' });
    await repo.git('branch', '-m', branch);
    const forked = await head(repo);
    await repo.git('checkout', '--quiet', '-b', 'feature');
    await repo.write('a.txt', '2\n');
    await repo.commit('work');
    const changeSet = await createChangeSet({ cwd: repo.root });
    expect(changeSet.base).toEqual({
      ref: branch,
      commit: forked,
      source: 'default-branch',
      refName: `refs/heads/${branch}`,
    });
    expect(changeSet.files.map((f) => f.path)).toEqual(['a.txt']);
  });

  test('on main itself the merge-base is HEAD, so only uncommitted work counts', async () => {
    const repo = await repoWith({ 'a.txt': '1\n' });
    await repo.write('b.txt', 'b\n');
    const changeSet = await createChangeSet({ cwd: repo.root });
    expect(changeSet.base).toEqual({
      ref: 'main',
      commit: await head(repo),
      source: 'default-branch',
      refName: 'refs/heads/main',
    });
    expect(changeSet.files.map((f) => f.path)).toEqual(['b.txt']);
  });

  test.each([
    ['there is no default branch', async (repo: TempRepo) => repo.git('branch', '-m', 'trunk')],
    [
      'the default branch shares no history with HEAD',
      async (repo: TempRepo) => {
        await repo.git('checkout', '--quiet', '--orphan', 'unrelated');
        await repo.commit('unrelated root');
      },
    ],
  ])('otherwise HEAD, when %s', async (_name, arrange) => {
    const repo = await repoWith({ 'a.txt': '1\n' });
    await arrange(repo);
    const changeSet = await createChangeSet({ cwd: join(repo.root) });
    expect(changeSet.base).toEqual({ ref: 'HEAD', commit: await head(repo), source: 'head' });
  });
});
