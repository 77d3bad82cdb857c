import { existsSync, realpathSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { TollgateError } from '../errors.js';
import { runProcess } from '../process.js';
import type { Env } from './env-overrides.js';

/**
 * The top of the git work tree containing `cwd` (`git rev-parse --show-toplevel`). `env` is the environment git runs
 * with (tests pass a private HOME and GIT_CONFIG_GLOBAL); default: this process's.
 */
export async function findRepoRoot(cwd: string, env?: Env): Promise<string> {
  const isDirectory = await stat(cwd).then(
    (info) => info.isDirectory(),
    () => false,
  );
  if (!isDirectory)
    throw new TollgateError('not_a_repo', `${cwd} is not a directory; run tollgate inside a git repository`);
  const effective = env ?? process.env;
  const found = effective.GIT_DIR || effective.GIT_WORK_TREE ? null : nearestWorkTree(realpathSync(resolve(cwd)));
  if (found) return found;
  const result = await runProcess('git', ['rev-parse', '--show-toplevel'], {
    cwd,
    env: env ? (env as NodeJS.ProcessEnv) : process.env,
    timeoutMs: 30_000,
  });
  if (result.spawnError) {
    throw new TollgateError(
      'not_a_repo',
      `cannot run git (${result.spawnError.code ?? result.spawnError.message}); tollgate needs git on PATH`,
    );
  }
  const root = result.stdout.trim();
  if (result.exitCode !== 0 || root === '') {
    throw new TollgateError(
      'not_a_repo',
      `${cwd} is not inside a git work tree; run tollgate from your repository (or "git init" one first)`,
    );
  }
  return root;
}

/** Variables that point git at a repository wherever it runs. */
const REPOSITORY_VARIABLES = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_COMMON_DIR', 'GIT_OBJECT_DIRECTORY'];

/**
 * For a command that also works outside a repository (`tollgate scan FILE`): the work tree root, or null when there
 * is none. Null without starting git when no folder at or above `cwd` holds a `.git` entry or a `HEAD` (what git
 * looks for to find a repository, bare ones included) and no variable points git elsewhere; else git decides.
 */
export async function findRepoRootIfAny(cwd: string, env?: Env): Promise<string | null> {
  const effective = env ?? process.env;
  let real: string | null;
  try {
    real = realpathSync(resolve(cwd));
  } catch {
    real = null; // findRepoRoot says what is wrong with it
  }
  if (real !== null && !REPOSITORY_VARIABLES.some((name) => effective[name]) && !mayHoldRepository(real)) return null;
  return findRepoRoot(cwd, env).catch(() => null);
}

function mayHoldRepository(dir: string): boolean {
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(join(current, '.git')) || existsSync(join(current, 'HEAD'))) return true;
    if (dirname(current) === current) return false;
  }
}

/**
 * The nearest folder at or above `dir` holding a `.git` entry (a folder, or the file of a worktree or submodule):
 * what `git rev-parse --show-toplevel` answers, without starting git (tollgate runs after every agent turn, and a
 * process start is a good part of its time on an unchanged tree). Null leaves the question to git.
 */
function nearestWorkTree(dir: string): string | null {
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(join(current, '.git'))) return current;
    if (dirname(current) === current) return null;
  }
}
