import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { removeDir, type TempRepo, tempDir } from '../../../test/support/git-repo.js';
import { useIsolatedRepos } from '../../../test/support/isolated-repos.js';
import { fingerprintOf } from './fingerprint.js';
import { createChangeSet, fingerprintTree } from './index.js';

const { repoWith, onCleanup } = useIsolatedRepos();

const fingerprint = async (repo: TempRepo, options: { ignore?: string[]; base?: string } = {}) =>
  (await createChangeSet({ cwd: repo.root, ...options })).fingerprint;

describe('fingerprint', () => {
  test('is stable, changes with any content change, and comes back when the content does', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    await repo.write('a.txt', 'changed\n');
    const first = await fingerprint(repo);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(await fingerprint(repo)).toBe(first);

    await repo.write('a.txt', 'changed again\n');
    const second = await fingerprint(repo);
    expect(second).not.toBe(first);
    await repo.write('new.txt', '');
    expect(await fingerprint(repo)).not.toBe(second);
    await repo.remove('new.txt');
    expect(await fingerprint(repo)).toBe(second);
    await repo.write('a.txt', 'changed\n');
    expect(await fingerprint(repo)).toBe(first);
  });

  test('depends on the working tree only, not on what is staged', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n' });
    await repo.write('a.txt', 'changed\n');
    await repo.write('new.txt', 'n\n');
    const unstaged = await fingerprint(repo);
    await repo.git('add', '-A');
    expect(await fingerprint(repo)).toBe(unstaged);
  });

  test('changes with the ignore patterns, the base, and the executable bit', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n' });
    await repo.write('a.txt', 'changed\n');
    await repo.commit('second');
    const plain = await fingerprint(repo, { base: 'HEAD~1' });
    expect(await fingerprint(repo, { base: 'HEAD~1', ignore: ['*.md'] })).not.toBe(plain);
    expect(await fingerprint(repo, { base: 'HEAD' })).not.toBe(plain);
    await repo.git('update-index', '--chmod=+x', 'a.txt');
    await repo.git('config', 'core.fileMode', 'true');
    const { chmod } = await import('node:fs/promises');
    await chmod(join(repo.root, 'a.txt'), 0o755);
    expect(await fingerprint(repo, { base: 'HEAD~1' })).not.toBe(plain);
  });

  test('fingerprintTree gives the change set fingerprint and HEAD without building it, through renames, deletions, ignore patterns and a clean filter', async () => {
    const repo = await repoWith({
      'a.txt': 'a\n',
      'old.txt': 'the same content\nmoved\n',
      'gone.txt': 'g\n',
      'f.bin': 'x',
    });
    await repo.write('.gitattributes', 'f.bin filter=upper\n');
    await repo.git('config', 'filter.upper.clean', 'tr a-z A-Z');
    await repo.commit('second');
    await repo.write('a.txt', 'changed\n');
    await repo.remove('gone.txt');
    await repo.remove('old.txt');
    await repo.write('new.txt', 'the same content\nmoved\n');
    await repo.write('f.bin', 'lower');
    await repo.write('notes.md', 'ignored\n');
    for (const options of [{}, { ignore: ['*.md'] }, { base: 'HEAD~1' }]) {
      const full = await createChangeSet({ cwd: repo.root, ...options });
      expect(await fingerprintTree({ cwd: repo.root, ...options })).toEqual({
        fingerprint: full.fingerprint,
        head: full.head,
      });
    }
    const before = await fingerprintTree({ cwd: repo.root });
    await repo.write('a.txt', 'changed once more\n');
    expect((await fingerprintTree({ cwd: repo.root })).fingerprint).not.toBe(before.fingerprint);
  });

  test('fingerprintTree since a change set (from the index its snapshot staged) gives what one from the user index gives, and sees every change made after it', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'gone.txt': 'g\n', 'f.bin': 'x' });
    await repo.write('.gitattributes', 'f.bin filter=upper\n');
    await repo.git('config', 'filter.upper.clean', 'tr a-z A-Z');
    await repo.commit('second');
    await repo.write('a.txt', 'changed\n');
    await repo.write('new.txt', 'n\n');
    await repo.write('f.bin', 'lower');
    await repo.remove('gone.txt');
    const options = { cwd: repo.root, ignore: ['*.md'] };
    const since = await createChangeSet(options);
    const same = async () => {
      const fresh = await fingerprintTree(options);
      expect(await fingerprintTree(options, since)).toEqual(fresh);
      return fresh.fingerprint;
    };
    expect(await same()).toBe(since.fingerprint);
    // Same size, same second as the snapshot's index: git's racy-clean check must read it again.
    await repo.write('a.txt', 'chAnged\n');
    const edited = await same();
    expect(edited).not.toBe(since.fingerprint);
    // The mtime put back: the ctime still moved.
    const { stat, utimes } = await import('node:fs/promises');
    const before = await stat(join(repo.root, 'b.txt'));
    await repo.write('b.txt', 'B\n');
    await utimes(join(repo.root, 'b.txt'), before.atime, before.mtime);
    expect(await same()).not.toBe(edited);
    // A flag set in the user's index meanwhile hides nothing from either.
    await repo.git('update-index', '--assume-unchanged', 'b.txt');
    await repo.write('b.txt', 'b again\n');
    await repo.write('notes.md', 'ignored\n');
    await repo.remove('new.txt');
    await repo.write('later.txt', 'l\n');
    await same();
    await repo.write('a.txt', 'changed\n');
    await repo.write('b.txt', 'b\n');
    await repo.write('new.txt', 'n\n');
    await repo.remove('later.txt');
    await repo.remove('notes.md');
    expect(await same()).toBe(since.fingerprint);
  });

  test('fingerprintTree since a change set measures against that change set base, not one resolved again, and still sees an edit and a commit', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n' });
    const first = (await repo.git('rev-parse', 'HEAD')).trim();
    await repo.write('a.txt', 'second\n');
    await repo.commit('second');
    await repo.write('new.txt', 'n\n');
    const since = await createChangeSet({ cwd: repo.root, base: first });
    // Resolved again, `HEAD` would be another base: the tree is still compared with the one the change set used.
    const now = await fingerprintTree({ cwd: repo.root, base: 'HEAD' }, since);
    expect(now).toEqual({ fingerprint: since.fingerprint, head: since.head });
    expect((await fingerprintTree({ cwd: repo.root, base: 'HEAD' })).fingerprint).not.toBe(since.fingerprint);
    await repo.write('new.txt', 'm\n');
    expect((await fingerprintTree({ cwd: repo.root, base: 'HEAD' }, since)).fingerprint).not.toBe(since.fingerprint);
    await repo.write('new.txt', 'n\n');
    await repo.git('commit', '--quiet', '--allow-empty', '--no-verify', '-m', 'empty');
    const moved = await fingerprintTree({ cwd: repo.root, base: 'HEAD' }, since);
    expect(moved.fingerprint).toBe(since.fingerprint);
    expect(moved.head).not.toBe(since.head);
  });

  test('fingerprintTree since a change set asks git for no listing when `git add` left its index as staged, and sees every change when not', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'gone.txt': 'g\n' });
    await repo.write('a.txt', 'changed\n');
    await repo.write('new.txt', 'n\n');
    await repo.remove('gone.txt');
    const traceDir = await tempDir('tollgate-trace-');
    onCleanup(() => removeDir(traceDir));
    const trace = join(traceDir, 'git.trace');
    const listings = async () =>
      (await readFile(trace, 'utf8').catch(() => '')).split('\n').filter((line) => line.includes('git diff-index'))
        .length;
    const savedTrace = process.env.GIT_TRACE;
    process.env.GIT_TRACE = trace;
    try {
      const since = await createChangeSet({ cwd: repo.root });
      const before = await listings();
      const same = await fingerprintTree({ cwd: repo.root }, since);
      expect(same).toEqual({ fingerprint: since.fingerprint, head: since.head });
      expect(await listings()).toBe(before);
      // Each of these rewrites the index, and git lists the changes again.
      const edits: Array<() => Promise<void>> = [
        () => repo.write('a.txt', 'chAnged\n'), // same size, same second: git's racy-clean check reads it again
        () => repo.write('later.txt', 'l\n'),
        () => repo.remove('b.txt'),
      ];
      let listed = await listings();
      for (const edit of edits) {
        await edit();
        const now = await fingerprintTree({ cwd: repo.root }, since);
        expect(now.fingerprint).not.toBe(since.fingerprint);
        expect(now).toEqual(await fingerprintTree({ cwd: repo.root }));
        expect(await listings()).toBeGreaterThan(listed);
        listed = await listings();
      }
    } finally {
      if (savedTrace === undefined) delete process.env.GIT_TRACE;
      else process.env.GIT_TRACE = savedTrace;
    }
  });

  test('does not depend on the order of its input', () => {
    const changes = [
      { path: 'b', mode: 0o100644, id: 'b'.repeat(40) },
      { path: 'a', mode: 0, id: '0'.repeat(40) },
    ];
    const input = { baseCommit: 'c'.repeat(40), ignore: [] };
    expect(fingerprintOf({ ...input, changes })).toBe(fingerprintOf({ ...input, changes: [...changes].reverse() }));
  });
});

describe('building a change set leaves the repository alone', () => {
  test('index bytes, stash, HEAD, status and temp files are unchanged, even when it fails', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    await repo.write('a.txt', 'staged\n');
    await repo.git('add', 'a.txt');
    await repo.write('a.txt', 'unstaged on top\n');
    await repo.write('untracked.txt', 'u\n');
    await repo.git('stash', 'push', '--quiet', '--include-untracked', '--', 'untracked.txt');
    await repo.write('untracked.txt', 'u2\n');

    const privateTmp = await tempDir('tollgate-tmp-');
    onCleanup(() => removeDir(privateTmp));
    // status first: it may refresh the index, and the bytes must be read after that.
    const status = await repo.git('status', '--porcelain=v2', '--untracked-files=all');
    const before = {
      status,
      index: await readFile(join(repo.root, '.git/index')),
      stash: await repo.git('stash', 'list'),
      head: await repo.git('rev-parse', 'HEAD'),
    };
    const savedTmp = process.env.TMPDIR;
    process.env.TMPDIR = privateTmp;
    try {
      const changeSet = await createChangeSet({ cwd: repo.root });
      expect(changeSet.files.map((f) => f.path)).toEqual(['a.txt', 'untracked.txt']);
      await changeSet.diff();
      await expect(createChangeSet({ cwd: repo.root, base: 'no-such-rev' })).rejects.toMatchObject({
        code: 'bad_revision',
      });
    } finally {
      process.env.TMPDIR = savedTmp;
    }
    expect(await readFile(join(repo.root, '.git/index'))).toEqual(before.index);
    expect(await repo.git('stash', 'list')).toBe(before.stash);
    expect(await repo.git('rev-parse', 'HEAD')).toBe(before.head);
    expect(await repo.git('status', '--porcelain=v2', '--untracked-files=all')).toBe(before.status);
    expect(await readFile(join(repo.root, 'untracked.txt'), 'utf8')).toBe('u2\n');
    expect(await readdir(privateTmp)).toEqual([]);
  });
});
