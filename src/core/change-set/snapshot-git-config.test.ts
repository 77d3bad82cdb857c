import { devNull } from 'node:os';
import { describe, expect, test } from 'vitest';
import { useIsolatedRepos } from '../../../test/support/isolated-repos.js';
import { runProcess } from '../process.js';
import { createGitRunner } from './git.js';
import { createChangeSet } from './index.js';
import { fixedGitEnv, SNAPSHOT_GIT_CONFIG } from './snapshot-git-config.js';

const { repoWith } = useIsolatedRepos();

/** The value the repository's own config is given for each forced setting: the one that would hide or bend content. */
const REPOSITORY_SAYS: Record<string, string> = {
  'core.fsmonitor': 'true',
  'core.untrackedCache': 'true',
  'core.splitIndex': 'true',
  'core.trustctime': 'false',
  'core.checkStat': 'minimal',
  'core.ignoreStat': 'true',
  'index.sparse': 'true',
  'core.sparseCheckout': 'true',
  'core.useReplaceRefs': 'true',
  'core.bigFileThreshold': '1',
  'core.autocrlf': 'true',
  'core.safecrlf': 'true',
  'advice.graftFileDeprecated': 'true',
};

describe('the git environment no repository can change', () => {
  test('every forced setting has a hostile value in this table', () => {
    expect(Object.keys(REPOSITORY_SAYS).sort()).toEqual(SNAPSHOT_GIT_CONFIG.map(([key]) => key).sort());
  });

  test("each forced setting holds for tollgate's git whatever the repository's config says", async () => {
    const repo = await repoWith({ 'a.txt': '1\n' });
    for (const [key] of SNAPSHOT_GIT_CONFIG) await repo.git('config', key, REPOSITORY_SAYS[key]!);
    const git = createGitRunner(repo.root);
    for (const [key, value] of SNAPSHOT_GIT_CONFIG) {
      const seen = await git.output(['config', '--get', key]);
      // The same through runProcess, the path of every other git tollgate starts.
      const direct = await runProcess('git', ['config', '--get', key], { cwd: repo.root, env: repo.env });
      expect({ key, seen: seen.trim(), direct: direct.stdout.trim() }).toEqual({ key, seen: value, direct: value });
    }
    // A test's own git, set up as a person would, opts out: it sees the repository's config.
    const asConfigured = await runProcess('git', ['config', '--get', 'core.bigFileThreshold'], {
      cwd: repo.root,
      env: repo.env,
      gitAsConfigured: true,
    });
    expect(asConfigured.stdout.trim()).toBe('1');
  });

  test('replace refs and grafts are off, and stacking the environment twice adds nothing', () => {
    const env = fixedGitEnv({ GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'user.name', GIT_CONFIG_VALUE_0: 'x' });
    expect(env).toMatchObject({ GIT_NO_REPLACE_OBJECTS: '1', GIT_GRAFT_FILE: devNull, GIT_OPTIONAL_LOCKS: '0' });
    // The caller's own entries come first and stay; ours come after them, so they win.
    expect(env.GIT_CONFIG_KEY_0).toBe('user.name');
    expect(env.GIT_CONFIG_COUNT).toBe(String(1 + SNAPSHOT_GIT_CONFIG.length));
    expect(fixedGitEnv(env)).toBe(env);
  });

  test("a replacement of the base commit is not the base's tree, even with core.useReplaceRefs=true", async () => {
    const repo = await repoWith({ 'a.txt': '1\n' });
    await repo.publish();
    const base = (await repo.git('rev-parse', 'HEAD')).trim();
    // A commit whose tree already holds the new content, put in the base's place.
    await repo.write('a.txt', 'SECRET\n');
    await repo.git('add', 'a.txt');
    const stand = (await repo.git('commit-tree', (await repo.git('write-tree')).trim(), '-m', 'stand-in')).trim();
    await repo.git('replace', base, stand);
    await repo.git('config', 'core.useReplaceRefs', 'true');
    const changeSet = await createChangeSet({ cwd: repo.root, trustedCommits: [base] });
    expect(changeSet.base.commit).toBe(base);
    expect(changeSet.files.map((file) => [file.path, file.addedLines])).toEqual([['a.txt', [{ start: 1, end: 1 }]]]);
  });

  test('info/grafts does not hide the commits since the base', async () => {
    const repo = await repoWith({ 'a.txt': '1\n' });
    await repo.publish();
    const base = (await repo.git('rev-parse', 'HEAD')).trim();
    await repo.write('b.txt', 'SECRET\n');
    await repo.commit('add');
    await repo.remove('b.txt');
    await repo.commit('remove');
    const head = (await repo.git('rev-parse', 'HEAD')).trim();
    const grafts = (await repo.git('rev-parse', '--git-path', 'info/grafts')).trim();
    await repo.write(grafts, `${head} ${base}\n`);
    const listed = await createGitRunner(repo.root).output(['rev-list', `${base}..${head}`]);
    expect(listed.trim().split('\n')).toHaveLength(2);
  });

  test('core.bigFileThreshold cannot make a text file binary, with no added lines to scan', async () => {
    const repo = await repoWith({ 'a.txt': '1\n' });
    await repo.git('config', 'core.bigFileThreshold', '1');
    await repo.write('a.txt', '1\nSECRET\n');
    const changeSet = await createChangeSet({ cwd: repo.root });
    expect(changeSet.files.map((file) => [file.binary, file.addedLines])).toEqual([[false, [{ start: 2, end: 2 }]]]);
  });

  test('core.autocrlf does not rewrite what is staged: the snapshot holds the bytes on disk', async () => {
    const repo = await repoWith({ 'a.txt': '1\n' });
    await repo.git('config', 'core.autocrlf', 'true');
    await repo.write('a.txt', '1\r\n2\r\n');
    const changeSet = await createChangeSet({ cwd: repo.root });
    expect(changeSet.files.map((file) => file.addedLines)).toEqual([[{ start: 1, end: 2 }]]);
  });
});
