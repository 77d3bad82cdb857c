import { existsSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { TollgateError } from '../../../core/errors.js';
import { runProcess } from '../../../core/process.js';

/** `git rev-parse --git-path <name>`, absolute: respects `core.hooksPath` and worktrees. */
export async function gitPath(repoRoot: string, name: string, env?: NodeJS.ProcessEnv): Promise<string> {
  const known = ownFolderPath(repoRoot, name, env ?? process.env);
  if (known !== null) return known;
  const result = await runProcess('git', ['rev-parse', '--path-format=absolute', '--git-path', name], {
    cwd: repoRoot,
    ...(env ? { env } : {}),
    timeoutMs: 30_000,
  });
  if (result.exitCode !== 0)
    throw new TollgateError('not_a_repo', `${repoRoot}: not a git repository (${result.stderr.trim()})`);
  return result.stdout.trim();
}

/** Variables that move what `--git-path` answers away from the work tree's own `.git` folder. */
const GIT_DIR_VARIABLES = ['GIT_DIR', 'GIT_COMMON_DIR', 'GIT_WORK_TREE'];

/**
 * What git answers for a path of tollgate's own (`tollgate/…`, no name git maps elsewhere, as it maps `hooks`, `index`
 * or `objects`) where the answer cannot be another: `<repoRoot>/.git/<name>` when `.git` is a folder (not a linked
 * worktree's file, nor a symlink) that shares no common folder (`commondir`) and no variable points git elsewhere;
 * else null, and git is asked. The hook's last git: 0.96-0.97x the hook's CPU on every commit
 * (docs/benchmarks.md, "A one-file scan's start, and the hook's last git", session 30). `repoRoot` is real, as
 * `findRepoRoot` gives it, and so is git's answer.
 */
function ownFolderPath(repoRoot: string, name: string, env: NodeJS.ProcessEnv): string | null {
  // On Windows git answers with forward slashes and a drive letter of its own spelling: git is asked there.
  if (process.platform === 'win32') return null;
  if (!name.startsWith('tollgate/') || GIT_DIR_VARIABLES.some((variable) => env[variable])) return null;
  const folder = join(repoRoot, '.git');
  try {
    if (!lstatSync(folder).isDirectory() || existsSync(join(folder, 'commondir'))) return null;
  } catch {
    return null;
  }
  return join(folder, name);
}
