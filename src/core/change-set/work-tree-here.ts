import { readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { TollgateError } from '../errors.js';

/** Variables that move the repository, the work tree or the index away from where a `.git` folder says they are. */
export const RELOCATING_ENV = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_COMMON_DIR',
  'GIT_CEILING_DIRECTORIES',
];

/**
 * Refuses a work tree that the repository's own config moved (`core.worktree`): git would then read another folder's
 * files, which the change chose, while the files here go unseen. Without relocating variables, git's work tree is the
 * folder holding the nearest `.git` (a worktree's or submodule's `.git` file included, whose `core.worktree` points
 * back at that same folder); the variables come from whoever starts tollgate, not from the change.
 */
export function checkWorkTreeIsHere(cwd: string, root: string, env: NodeJS.ProcessEnv = process.env): void {
  if (RELOCATING_ENV.some((name) => env[name] !== undefined)) return;
  const here = nearestDotGitFolder(safeRealpath(cwd));
  if (here === null || here === safeRealpath(root)) return;
  throw new TollgateError(
    'relocated_work_tree',
    `the repository's config points git at the work tree ${root} (core.worktree), not ${here} where its .git is: git would read another folder's files; run \`git config --unset core.worktree\` in ${here}`,
  );
}

function safeRealpath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function nearestDotGitFolder(dir: string): string | null {
  for (let current = dir; ; current = dirname(current)) {
    if (holdsRepository(join(current, '.git'))) return current;
    if (dirname(current) === current) return null;
  }
}

/**
 * A `.git` git itself would take: a folder with `HEAD` and `objects/`, or a `gitdir:` file (a linked worktree or a
 * submodule). A stray `.git` that is neither is passed over, as git passes over it.
 */
function holdsRepository(dotGit: string): boolean {
  try {
    const info = statSync(dotGit);
    if (info.isFile()) return readFileSync(dotGit, 'utf8').startsWith('gitdir:');
    return (
      info.isDirectory() && statSync(join(dotGit, 'HEAD')).isFile() && statSync(join(dotGit, 'objects')).isDirectory()
    );
  } catch {
    return false;
  }
}
