import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTempHome, createTempRepo, removeDir, type TempRepo, tempDir } from '../../../test/support/git-repo.js';
import { TollgateError } from '../errors.js';
import { findRepoRoot, findRepoRootIfAny } from './repo-root.js';

describe('findRepoRoot', () => {
  let repo: TempRepo;
  beforeAll(async () => {
    repo = await createTempRepo({ files: { 'src/a.ts': 'export {};\n' } });
  });
  afterAll(async () => {
    await repo.cleanup();
  });

  test('finds the work tree root from a subfolder', async () => {
    expect(await findRepoRoot(join(repo.root, 'src'), repo.env)).toBe(repo.root);
  });

  test('outside a repository it is a not_a_repo error naming the folder', async () => {
    const home = await createTempHome();
    const outside = await tempDir('tollgate-no-repo-');
    // Keep git from finding a repository above the temp folder.
    const env = { ...home.env, GIT_CEILING_DIRECTORIES: join(outside, '..') };
    await mkdir(join(outside, 'deep'));
    const error = await findRepoRoot(join(outside, 'deep'), env).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(TollgateError);
    expect((error as TollgateError).code).toBe('not_a_repo');
    expect((error as TollgateError).message).toBe(
      `${join(outside, 'deep')} is not inside a git work tree; run tollgate from your repository (or "git init" one first)`,
    );
    await removeDir(outside);
    await home.cleanup();
  });

  test('a folder that does not exist is a not_a_repo error', async () => {
    const missing = join(repo.root, 'missing');
    await expect(findRepoRoot(missing, repo.env)).rejects.toThrow(
      `${missing} is not a directory; run tollgate inside a git repository`,
    );
  });
});

describe('findRepoRootIfAny', () => {
  /** A folder outside any repository whose PATH has a `git` that claims every folder is a work tree at /claimed. */
  async function withClaimingGit(): Promise<{ outside: string; env: NodeJS.ProcessEnv; done: () => Promise<void> }> {
    const home = await createTempHome();
    const outside = await tempDir('tollgate-no-repo-');
    const bin = join(outside, 'bin');
    await mkdir(bin);
    await writeFile(join(bin, 'git'), '#!/bin/sh\necho /claimed\n', { mode: 0o755 });
    await mkdir(join(outside, 'work'));
    return {
      outside: join(outside, 'work'),
      env: { ...home.env, PATH: `${bin}:${home.env.PATH ?? ''}` },
      done: async () => {
        await removeDir(outside);
        await home.cleanup();
      },
    };
  }

  test.skipIf(process.platform === 'win32')('no .git or HEAD above the folder: null, without asking git', async () => {
    const { outside, env, done } = await withClaimingGit();
    expect(await findRepoRootIfAny(outside, env)).toBeNull();
    await done();
  });

  test.skipIf(process.platform === 'win32')('a HEAD (a bare repository?) or GIT_DIR: git decides', async () => {
    const { outside, env, done } = await withClaimingGit();
    expect(await findRepoRootIfAny(outside, { ...env, GIT_DIR: join(outside, 'x') })).toBe('/claimed');
    await writeFile(join(outside, 'HEAD'), 'ref: refs/heads/main\n');
    expect(await findRepoRootIfAny(outside, env)).toBe('/claimed');
    await done();
  });

  test('in a repository: its root; a folder that does not exist: null', async () => {
    const repo = await createTempRepo({ files: { 'a.txt': 'a\n' } });
    expect(await findRepoRootIfAny(repo.root, repo.env)).toBe(repo.root);
    expect(await findRepoRootIfAny(join(repo.root, 'missing'), repo.env)).toBeNull();
    await repo.cleanup();
  });
});
