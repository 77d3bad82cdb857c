import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { removeDir, tempDir } from '../../../test/support/git-repo.js';
import { useIsolatedRepos } from '../../../test/support/isolated-repos.js';
import { createChangeSet } from './index.js';

const { repoWith, onCleanup } = useIsolatedRepos();

describe('commits since the base that git cannot show make the change set say so', () => {
  test('a shallow list that cuts history above the base', async () => {
    const repo = await repoWith({ 'a.txt': '1\n' });
    await repo.publish();
    const trustedCommits = [(await repo.git('rev-parse', 'HEAD')).trim()];
    await repo.write('b.txt', 'SECRET\n');
    await repo.commit('add');
    await repo.remove('b.txt');
    const cut = await repo.commit('remove');
    await repo.write('c.txt', 'c\n');
    await repo.commit('more');
    const shallow = (await repo.git('rev-parse', '--git-path', 'shallow')).trim();
    await repo.write(shallow, `${cut}\n`);
    const changeSet = await createChangeSet({ cwd: repo.root, trustedCommits });
    expect(changeSet.base.source).toBe('pinned');
    expect(changeSet.historyGap).toBe(
      'the clone is shallow and its history is cut off after the base (.git/shallow), so commits since the base are missing; run `git fetch --unshallow` (in CI: actions/checkout with fetch-depth: 0)',
    );
    // A list that is not commit ids is never read as arguments: git itself refuses the repository (an error, no pass).
    await repo.write(shallow, '--all\n');
    await expect(createChangeSet({ cwd: repo.root, trustedCommits })).rejects.toThrow(/bad shallow line/);
  });

  test('a shallow clone whose boundary is the base itself misses nothing', async () => {
    const origin = await repoWith({ 'a.txt': '1\n' });
    await origin.write('a.txt', '2\n');
    await origin.commit('second');
    const folder = await tempDir('tollgate-shallow-');
    onCleanup(() => removeDir(folder));
    const root = join(folder, 'clone');
    await origin.git('clone', '--quiet', '--depth', '1', `file://${origin.root}`, root);
    await origin.git('-C', root, 'commit', '--quiet', '--allow-empty', '-m', 'work');
    const changeSet = await createChangeSet({ cwd: root });
    expect(changeSet.base.source).toBe('upstream');
    expect(changeSet.historyGap).toBeUndefined();
  });

  test('borrowed objects (objects/info/alternates)', async () => {
    const repo = await repoWith({ 'a.txt': '1\n' });
    const other = await repoWith({ 'b.txt': '1\n' });
    const alternates = (await repo.git('rev-parse', '--git-path', 'objects/info/alternates')).trim();
    await repo.write(alternates, `${join(other.root, '.git', 'objects')}\n`);
    expect((await createChangeSet({ cwd: repo.root })).historyGap).toBe(
      'the repository borrows objects from another store (.git/objects/info/alternates), so the commits since the base may not be its own; run `git repack -a -d` and remove .git/objects/info/alternates',
    );
  });
});
