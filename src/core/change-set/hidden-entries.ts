import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import type { GitRunner } from './git.js';

/** Index entries `git add -A` would not look at on its own, from `git ls-files -v -z`. */
export interface HiddenEntries {
  /** Skip-worktree entries (sparse checkout, or `update-index --skip-worktree`). */
  skipWorktree: string[];
  /** Assume-unchanged entries (`update-index --assume-unchanged`). */
  assumeUnchanged: string[];
  /** Tracked files under tollgate's state folder, which the main `git add` leaves out with the untracked state. */
  stateDir: string[];
}

/**
 * Parses `git ls-files -v -z`: `<tag> <path>\0` per entry. `S` marks skip-worktree, and a lowercase tag marks
 * assume-unchanged (https://git-scm.com/docs/git-ls-files#Documentation/git-ls-files.txt--v).
 */
export function parseHiddenEntries(output: string, stateDir: string): HiddenEntries {
  const hidden: HiddenEntries = { skipWorktree: [], assumeUnchanged: [], stateDir: [] };
  for (const record of output.split('\0')) {
    if (record.length < 3) continue;
    const tag = record[0]!;
    const path = record.slice(2);
    if (tag === 'S' || tag === 's') hidden.skipWorktree.push(path);
    if (tag !== tag.toUpperCase()) hidden.assumeUnchanged.push(path);
    if (path.startsWith(`${stateDir}/`)) hidden.stateDir.push(path);
  }
  return hidden;
}

/**
 * Clears, in the temporary index only, the flags that make `git add` trust an entry without reading the file:
 * assume-unchanged always, skip-worktree when the file is on disk. A skip-worktree file that is absent is simply not
 * checked out (a sparse checkout), not deleted, so it keeps its flag and its entry. Returns the paths to stage again.
 */
export async function revealHiddenEntries(
  git: GitRunner,
  env: Record<string, string>,
  root: string,
  hidden: HiddenEntries,
): Promise<string[]> {
  const present = hidden.skipWorktree.filter((path) => existsOnDisk(join(root, path)));
  const presentSet = new Set(present);
  const notCheckedOut = new Set(hidden.skipWorktree.filter((path) => !presentSet.has(path)));
  // One flag per call: update-index applies only the last of --no-skip-worktree / --no-assume-unchanged.
  if (present.length > 0) await clearFlag(git, env, '--no-skip-worktree', present);
  if (hidden.assumeUnchanged.length > 0) await clearFlag(git, env, '--no-assume-unchanged', hidden.assumeUnchanged);
  // `git add` refuses a pathspec that names only entries outside the sparse checkout: those are not staged again.
  const restage = [...present, ...hidden.assumeUnchanged, ...hidden.stateDir].filter(
    (path) => !notCheckedOut.has(path),
  );
  return [...new Set(restage)];
}

async function clearFlag(git: GitRunner, env: Record<string, string>, flag: string, paths: string[]): Promise<void> {
  await git.output(['update-index', flag, '-z', '--stdin'], { env, input: `${paths.join('\0')}\0` });
}

function existsOnDisk(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
