import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { useIsolatedRepos } from '../../../test/support/isolated-repos.js';
import { repoFilesOf } from './stamp-repo-files.js';
import { stampOf } from './tree-stamp.js';

/**
 * A stamp reads the root, index and refs from the repository's files only where that says what `git rev-parse` says,
 * and changes whenever rev-parse's list of refs does; anything else is left to git.
 */
const { repoWith } = useIsolatedRepos();

describe('repoFilesOf', () => {
  test('the root and index are what git says, from the root or a sub-folder', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n', 'dir/b.txt': 'b\n' });
    const files = repoFilesOf(join(repo.root, 'dir'), repo.env, true);
    expect(files?.top).toBe((await repo.git('rev-parse', '--show-toplevel')).trim());
    expect(files?.indexPath).toBe(join(repo.root, (await repo.git('rev-parse', '--git-path', 'index')).trim()));
    expect(files?.objectFormat).toBe((await repo.git('rev-parse', '--show-object-format')).trim());
  });

  test('every change to the refs git lists changes the text, packed or loose', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n' });
    const first = (await repo.git('rev-parse', 'HEAD')).trim();
    await repo.write('a.txt', 'a2\n');
    const second = await repo.commit('second');
    const seen = new Map<string, string>();
    const observe = async () => {
      const listed = await repo.git('rev-parse', '--all', '--symbolic-full-name', '--all');
      const text = repoFilesOf(repo.root, repo.env, true)!.refs;
      const earlier = seen.get(text);
      if (earlier !== undefined) expect(listed).toBe(earlier);
      seen.set(text, listed);
    };
    const steps: string[][] = [
      ['update-ref', 'refs/heads/base', first],
      ['tag', 'v1', first],
      ['pack-refs', '--all'],
      ['update-ref', 'refs/heads/base', second],
      ['update-ref', 'refs/tags/v1', second],
      ['pack-refs', '--all'],
      ['update-ref', 'refs/heads/base', first],
      ['update-ref', '-d', 'refs/heads/base'],
      ['symbolic-ref', 'refs/heads/alias', 'refs/heads/main'],
      ['update-ref', 'refs/heads/main', first],
      ['update-ref', 'refs/remotes/origin/main', second],
      ['pack-refs', '--all'],
      ['update-ref', 'refs/heads/main', second],
    ];
    await observe();
    for (const step of steps) {
      await repo.git(...step);
      await observe();
    }
    expect(seen.size).toBeGreaterThanOrEqual(8);
  });

  test('a ref file whose bytes are not exact UTF-8 is left to git, packed or loose', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n' });
    expect(repoFilesOf(repo.root, repo.env, true)).toBeDefined();
    const head = (await repo.git('rev-parse', 'HEAD')).trim();
    // Latin-1 bytes of a ref name (\xe9), which UTF-8 cannot decode: two such names must never read as one text.
    writeFileSync(join(repo.root, '.git/packed-refs'), Buffer.from(`${head} refs/tags/caf\xe9\n`, 'latin1'));
    expect(repoFilesOf(repo.root, repo.env, true)).toBeUndefined();
    writeFileSync(join(repo.root, '.git/packed-refs'), `${head} refs/tags/caf\u00e9\n`);
    expect(repoFilesOf(repo.root, repo.env, true)?.refs).toContain('refs/tags/caf\u00e9');
    writeFileSync(join(repo.root, '.git/refs/heads/odd'), Buffer.from([0x66, 0xff, 0x0a]));
    expect(repoFilesOf(repo.root, repo.env, true)).toBeUndefined();
  });

  test('anything but the plain layout is left to git', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n' });
    expect(repoFilesOf(repo.root, repo.env, true)).toBeDefined();
    for (const variable of ['GIT_DIR', 'GIT_INDEX_FILE', 'GIT_CEILING_DIRECTORIES', 'GIT_CONFIG_PARAMETERS']) {
      expect(repoFilesOf(repo.root, { ...repo.env, [variable]: repo.root }, true), variable).toBeUndefined();
    }
    const fallsBack = async (configure: () => Promise<unknown>, undo: () => Promise<unknown>) => {
      await configure();
      expect(repoFilesOf(repo.root, repo.env, true)).toBeUndefined();
      await undo();
      expect(repoFilesOf(repo.root, repo.env, true)).toBeDefined();
    };
    await fallsBack(
      () => repo.git('config', 'core.WorkTree', repo.root),
      () => repo.git('config', '--unset', 'core.worktree'),
    );
    await fallsBack(
      () => repo.git('config', 'include.path', 'elsewhere'),
      () => repo.git('config', '--unset', 'include.path'),
    );
    await fallsBack(
      () => repo.git('config', 'extensions.worktreeConfig', 'true'),
      () => repo.git('config', '--unset', 'extensions.worktreeConfig'),
    );
    await fallsBack(
      () => repo.git('worktree', 'add', '-q', join(repo.root, '..', `${repo.root.split('/').pop()}-wt`)),
      () => repo.git('worktree', 'remove', join(repo.root, '..', `${repo.root.split('/').pop()}-wt`)),
    );
    mkdirSync(join(repo.root, '.git/refs/heads/odd'));
    symlinkSync(join(repo.root, '.git/refs/heads/main'), join(repo.root, '.git/refs/heads/odd/link'));
    expect(repoFilesOf(repo.root, repo.env, true)).toBeUndefined();
  });

  test('a .git file, a .git git would pass over, or no repository: left to git', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n' });
    const linked = join(repo.root, 'linked');
    mkdirSync(linked);
    writeFileSync(join(linked, '.git'), `gitdir: ${join(repo.root, '.git')}\n`);
    expect(repoFilesOf(linked, repo.env, true)).toBeUndefined();
    const stray = join(repo.root, 'stray');
    mkdirSync(join(stray, '.git'), { recursive: true });
    expect(repoFilesOf(stray, repo.env, true)).toBeUndefined();
    // A bare repository below the work tree's root: git stops there and its status fails, so no stamp vouches.
    await repo.git('init', '-q', '--bare', join(repo.root, 'b.git'));
    const stamp = await stampOf({
      cwd: join(repo.root, 'b.git'),
      env: repo.env,
      version: 't',
      purpose: 'run',
      refs: true,
    });
    expect(stamp?.vouches ?? false).toBe(false);
  });
});
