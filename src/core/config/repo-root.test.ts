import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTempHome, createTempRepo, removeDir, type TempRepo, tempDir } from '../../../test/support/git-repo.js';
import { TollgateError } from '../errors.js';
import { findRepoRoot } from './repo-root.js';

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
