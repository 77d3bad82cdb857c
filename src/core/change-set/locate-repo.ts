import { realpathSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { TollgateError } from '../errors.js';
import { createGitRunner } from './git.js';
import { checkWorkTreeIsHere } from './work-tree-here.js';

export { guessRepo } from './guess-repo.js';

export interface RepoLocation {
  /** Absolute work tree root. */
  root: string;
  /** Absolute path of the index git uses for this work tree (worktrees and `GIT_INDEX_FILE` included). */
  indexPath: string;
  /** `sha1` or `sha256`: decides the empty tree id. */
  objectFormat: string;
  /** HEAD's commit when the repository was located; null before the first commit. */
  head: string | null;
  /** Absolute paths of git's shallow list and alternates file (either may not exist): see history-gap.ts. */
  shallowFile: string;
  alternatesFile: string;
}

function notARepo(cwd: string): TollgateError {
  return new TollgateError(
    'not_a_repo',
    `${cwd} is not inside a git work tree (run tollgate inside a repository, or git init)`,
  );
}

/** Finds the work tree around `cwd` with one `git rev-parse`. */
export async function locateRepo(cwd: string): Promise<RepoLocation> {
  const dir = resolve(cwd);
  const isDir = await stat(dir).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isDir) throw notARepo(dir);
  const result = await createGitRunner(dir).run([
    'rev-parse',
    '--show-toplevel',
    '--git-path',
    'index',
    '--git-path',
    'shallow',
    '--git-path',
    'objects/info/alternates',
    '--show-object-format',
    // HEAD in the same process; it alone fails (exit 1, after the lines above) before the first commit.
    '--verify',
    '--quiet',
    '--end-of-options',
    'HEAD^{commit}',
  ]);
  // Outside a repository, in a bare one or inside .git, rev-parse fails before printing a top level.
  const [root, indexPath, shallowFile, alternatesFile, objectFormat, head] = result.stdout.split('\n');
  if (!root || !indexPath || !shallowFile || !alternatesFile || !objectFormat || (result.exitCode !== 0 && head)) {
    throw notARepo(dir);
  }
  checkWorkTreeIsHere(dir, root);
  return {
    root,
    // `--git-path` answers relative to the directory git ran in.
    indexPath: resolve(dir, indexPath),
    shallowFile: resolve(dir, shallowFile),
    alternatesFile: resolve(dir, alternatesFile),
    objectFormat,
    head: result.exitCode === 0 && head ? head : null,
  };
}

/** Whether a guess names the same work tree and index as the real location (symlinks resolved). */
export function sameLocation(guess: Pick<RepoLocation, 'root' | 'indexPath'>, real: RepoLocation): boolean {
  return canonical(guess.root) === canonical(real.root) && canonical(guess.indexPath) === canonical(real.indexPath);
}

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    try {
      return join(realpathSync(dirname(path)), basename(path));
    } catch {
      return path;
    }
  }
}
