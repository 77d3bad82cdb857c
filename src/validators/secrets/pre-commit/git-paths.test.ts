import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../../../../test/support/git-repo.js';
import { runProcess } from '../../../core/process.js';
import { gitPath } from './git-paths.js';

let repo: TempRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

const NAME = 'tollgate/pre-commit-attempts.json';

/** What git itself answers, the path every layout must keep. */
async function gitsAnswer(root: string, name: string, env: NodeJS.ProcessEnv): Promise<string> {
  const result = await runProcess('git', ['rev-parse', '--path-format=absolute', '--git-path', name], {
    cwd: root,
    env,
  });
  expect(result.exitCode, result.stderr).toBe(0);
  return result.stdout.trim();
}

describe('gitPath', () => {
  test.skipIf(process.platform === 'win32')(
    "a repository's own .git folder answers tollgate's paths without starting git, as git would",
    async () => {
      repo = await createTempRepo({ files: { 'a.txt': 'one\n' } });
      const expected = await gitsAnswer(repo.root, NAME, repo.env);
      expect(expected).toBe(join(repo.root, '.git', NAME));
      // No git on PATH: the answer cannot have come from git.
      expect(await gitPath(repo.root, NAME, { ...repo.env, PATH: '' })).toBe(expected);
      expect(await gitPath(repo.root, 'tollgate/redacted', { ...repo.env, PATH: '' })).toBe(
        join(repo.root, '.git', 'tollgate/redacted'),
      );
    },
  );

  test('a linked worktree, GIT_DIR, GIT_COMMON_DIR and git-mapped names are still asked of git', async () => {
    repo = await createTempRepo({ files: { 'a.txt': 'one\n' } });
    const worktree = join(repo.home, 'linked');
    await repo.git('worktree', 'add', '-q', worktree);
    for (const name of [NAME, 'tollgate/redacted']) {
      expect(await gitPath(worktree, name, repo.env)).toBe(await gitsAnswer(worktree, name, repo.env));
      await expect(gitPath(worktree, name, { ...repo.env, PATH: '' })).rejects.toThrow();
    }
    const elsewhere = { ...repo.env, GIT_COMMON_DIR: join(repo.root, '.git') };
    expect(await gitPath(worktree, NAME, elsewhere)).toBe(await gitsAnswer(worktree, NAME, elsewhere));
    const gitDir = { ...repo.env, GIT_DIR: join(repo.root, '.git') };
    expect(await gitPath(repo.root, NAME, gitDir)).toBe(await gitsAnswer(repo.root, NAME, gitDir));
    await expect(gitPath(repo.root, NAME, { ...gitDir, PATH: '' })).rejects.toThrow();
    await repo.git('config', 'core.hooksPath', 'my-hooks');
    expect(await gitPath(repo.root, 'hooks', repo.env)).toBe(join(repo.root, 'my-hooks'));
  });
});
