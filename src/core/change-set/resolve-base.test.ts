import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { removeDir, type TempRepo } from '../../../test/support/git-repo.js';
import { useIsolatedRepos } from '../../../test/support/isolated-repos.js';
import { createGitRunner, type GitRunner } from './git.js';
import { createChangeSet } from './index.js';
import { resolveBaseWithHead } from './resolve-base.js';

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

/** A git runner that records the subcommand of every process it starts. */
function countingRunner(root: string): { git: GitRunner; commands: string[] } {
  const real = createGitRunner(root);
  const commands: string[] = [];
  const git: GitRunner = {
    cwd: real.cwd,
    run: (args, options) => {
      commands.push(args[0] ?? '');
      return real.run(args, options);
    },
    output: (args, options) => {
      commands.push(args[0] ?? '');
      return real.output(args, options);
    },
    outputBytes: (args, options) => {
      commands.push(args[0] ?? '');
      return real.outputBytes(args, options);
    },
  };
  return { git, commands };
}

describe('HEAD read with the base', () => {
  test('on main itself: one for-each-ref says the base and HEAD, no merge-base, no rev-parse', async () => {
    const repo = await repoWith({ 'a.txt': '1\n' });
    const { git, commands } = countingRunner(repo.root);
    const resolution = await resolveBaseWithHead(git, {});
    expect(resolution.base).toEqual({
      ref: 'main',
      commit: await head(repo),
      source: 'default-branch',
      refName: 'refs/heads/main',
    });
    expect(await resolution.head()).toBe(await head(repo));
    expect(commands).toEqual(['for-each-ref']);
  });

  test('on a branch ahead of main: merge-base for the base, HEAD from the listing', async () => {
    const repo = await repoWith({ 'a.txt': '1\n' });
    const forked = await head(repo);
    await repo.git('checkout', '--quiet', '-b', 'feature');
    await repo.commit('work');
    const { git, commands } = countingRunner(repo.root);
    const resolution = await resolveBaseWithHead(git, {});
    expect(resolution.base.commit).toBe(forked);
    expect(await resolution.head()).toBe(await head(repo));
    expect(commands).toEqual(['for-each-ref', 'merge-base']);
  });

  test('a detached HEAD (even at main) and a named base ask rev-parse, once', async () => {
    const repo = await repoWith({ 'a.txt': '1\n' });
    const tip = await head(repo);
    await repo.git('checkout', '--quiet', '--detach');
    const detached = countingRunner(repo.root);
    const resolution = await resolveBaseWithHead(detached.git, {});
    expect(resolution.base).toMatchObject({ ref: 'main', commit: tip });
    expect(await resolution.head()).toBe(tip);
    expect(await resolution.head()).toBe(tip);
    expect(detached.commands).toEqual(['for-each-ref', 'merge-base', 'rev-parse']);
    const named = countingRunner(repo.root);
    const flagged = await resolveBaseWithHead(named.git, { flag: 'main' });
    expect(flagged.base).toEqual({ ref: 'main', commit: tip, source: 'flag' });
    expect(await flagged.head()).toBe(tip);
    expect(named.commands).toEqual(['rev-parse', 'rev-parse']);
  });

  test('before the first commit: no base, no HEAD', async () => {
    const repo = await repoWith({ 'a.txt': '1\n' }, { commit: false });
    const resolution = await resolveBaseWithHead(createGitRunner(repo.root), {});
    expect(resolution.base).toEqual({ ref: null, commit: null, source: 'empty' });
    expect(await resolution.head()).toBeNull();
  });
});
