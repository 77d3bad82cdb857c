import { readdir } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { removeDir, tempDir } from '../../../test/support/git-repo.js';
import { useIsolatedRepos } from '../../../test/support/isolated-repos.js';
import { timeBudget } from '../../../test/support/time-budget.js';
import { createChangeSet, startChangeSet } from './index.js';

/**
 * `tollgate run` begins the snapshot (`git add` into the temporary index) while it reads the config, and finishes it
 * with the config's settings once it holds the lock (src/core/run/run-lifecycle.ts).
 */
const { repoWith, onCleanup } = useIsolatedRepos();

/** Runs `work` with TMPDIR pointed at a fresh folder, and returns what is left in it afterwards. */
async function leftInTmp(work: () => Promise<void>): Promise<string[]> {
  const privateTmp = await tempDir('tollgate-tmp-');
  onCleanup(() => removeDir(privateTmp));
  const savedTmp = process.env.TMPDIR;
  process.env.TMPDIR = privateTmp;
  try {
    await work();
  } finally {
    process.env.TMPDIR = savedTmp;
  }
  return readdir(privateTmp);
}

describe('a change set begun before its settings are known', () => {
  test('finished with the settings: the same change set createChangeSet builds, temporary index removed', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n', 'b.log': 'b\n' });
    await repo.write('a.txt', 'a2\n');
    await repo.write('b.log', 'b2\n');
    await repo.write('new.txt', 'new\n');
    const left = await leftInTmp(async () => {
      const started = startChangeSet(repo.root);
      const settings = { ignore: ['*.log'], maxFileSize: 1_000 };
      const early = await started.finish(settings);
      const direct = await createChangeSet({ cwd: repo.root, ...settings });
      expect(early.files).toEqual(direct.files);
      expect(early.ignored).toEqual(['b.log']);
      expect(early.fingerprint).toBe(direct.fingerprint);
      expect(early.base).toEqual(direct.base);
      expect(() => started.cancel()).not.toThrow();
      await expect(started.finish(settings)).rejects.toThrow(/already called/);
    });
    expect(left).toEqual([]);
  });

  test('its content is the tree when it began: an edit after that is not in it, and is a different change set', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n' });
    await repo.write('a.txt', 'first edit\n');
    const started = startChangeSet(repo.root);
    await started.staged; // a run reads its config meanwhile
    await repo.write('a.txt', 'second edit, longer\n');
    const early = await started.finish({});
    const now = await createChangeSet({ cwd: repo.root });
    expect(await early.readText('a.txt')).toBe('first edit\n');
    expect(await now.readText('a.txt')).toBe('second edit, longer\n');
    expect(early.fingerprint).not.toBe(now.fingerprint);
  });

  test('cancelled: nothing is built and the temporary index is removed once git is done', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n' });
    await repo.write('a.txt', 'edited\n');
    const left = await leftInTmp(async () => {
      const started = startChangeSet(repo.root);
      started.cancel();
      started.cancel();
      await expect(started.finish({})).rejects.toThrow(/already called/);
      await started.staged;
      // The folder goes once `git add` is done with it.
      for (let waited = 0; waited < timeBudget(10_000) && (await readdir(process.env.TMPDIR!)).length > 0; waited += 50)
        await new Promise((done) => setTimeout(done, 50));
    });
    expect(left).toEqual([]);
  });

  test('whileGitWorks runs at most once, only while git works, and changes nothing in the change set', async () => {
    const files = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`f${i}.txt`, `${i}\n`]));
    const repo = await repoWith(files);
    for (let i = 0; i < 300; i += 3) await repo.write(`f${i}.txt`, `edited ${i}\n`);
    const events: string[] = [];
    const started = startChangeSet(repo.root);
    started.staged.then(() => events.push('staged'));
    const early = await started.finish({ whileGitWorks: () => events.push('work') });
    expect(events.filter((event) => event === 'work').length).toBeLessThanOrEqual(1);
    expect(events.indexOf('work')).toBeLessThan(Math.max(0, events.indexOf('staged')) + 1);
    expect(early.fingerprint).toBe((await createChangeSet({ cwd: repo.root })).fingerprint);
    // Settings given once `git add` is done, and no rename pass to wait for (no deletion): nothing is called.
    const late = startChangeSet(repo.root);
    await late.staged;
    let called = 0;
    await late.finish({ whileGitWorks: () => called++ });
    expect(called).toBe(0);
    // A deletion and an addition: the listing's rename pass may be left to wait for, once at most.
    await repo.remove('f1.txt');
    await repo.write('added.txt', 'new\n');
    const renames = startChangeSet(repo.root);
    await renames.staged;
    const withPass = await renames.finish({ whileGitWorks: () => called++ });
    expect(called).toBeLessThanOrEqual(1);
    expect(withPass.fingerprint).toBe((await createChangeSet({ cwd: repo.root })).fingerprint);
  });

  test('outside a repository, finish fails as createChangeSet does', async () => {
    const dir = await tempDir('tollgate-not-a-repo-');
    onCleanup(() => removeDir(dir));
    await expect(startChangeSet(dir).finish({})).rejects.toMatchObject({ code: 'not_a_repo' });
  });
});
