import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { withPrivateTempDir } from '../private-temp.js';
import { createGitRunner } from './git.js';

/**
 * Writes a commit's files into `dir` (a source tree for a tool that reads files, such as CodeQL's overlay base),
 * through a private index: the user's index, work tree and stash are never touched. With `paths`, only those are
 * written (a path the commit does not have is removed from `dir`), to put files back after an overlay changed them.
 */
export async function exportTree(options: {
  repoRoot: string;
  commit: string;
  dir: string;
  paths?: readonly string[];
}): Promise<void> {
  const git = createGitRunner(options.repoRoot);
  await mkdir(options.dir, { recursive: true, mode: 0o700 });
  await withPrivateTempDir('tollgate-export-', async (tmp) => {
    const env = { GIT_INDEX_FILE: join(tmp, 'index') };
    await git.output(['read-tree', options.commit], { env });
    const prefix = `${options.dir.replace(/\/+$/, '')}/`;
    if (!options.paths) {
      await git.output(['checkout-index', '--all', '--force', `--prefix=${prefix}`], { env });
      return;
    }
    if (options.paths.length === 0) return;
    const listed = await git.output(['ls-files', '-z', '--', ...options.paths.map((path) => `:(literal)${path}`)], {
      env,
    });
    const present = new Set(listed.split('\0').filter(Boolean));
    for (const path of options.paths) if (!present.has(path)) await rm(join(options.dir, path), { force: true });
    if (present.size > 0) {
      await git.output(['checkout-index', '--force', `--prefix=${prefix}`, '-z', '--stdin'], {
        env,
        input: `${[...present].join('\0')}\0`,
      });
    }
  });
}
