import { readFile } from 'node:fs/promises';
import type { GitRunner } from './git.js';
import type { ChangeSetBase } from './types.js';

/**
 * Why the commits since the base may not all be in view, or null when they are. Replace refs and grafts are simply
 * switched off for every git tollgate runs (`fixedGitEnv`); two shapes of a repository cannot be switched off, so a
 * run in one is `incomplete`, with this one-line reason:
 *
 * - a shallow list (`.git/shallow`) naming a commit that is not the base or under it: git sees that commit as a root,
 *   so the commits between the base and it are missing (a clone made with `fetch-depth: 1`, or an agent that wrote
 *   the file). So does a shallow repository whose base fell back to HEAD (or to nothing) because git found no shared
 *   history: the cut may be what hid it. A shallow boundary at or below a base found in shared history is harmless:
 *   everything since the base is there;
 * - borrowed objects (`objects/info/alternates`, `GIT_ALTERNATE_OBJECT_DIRECTORIES`): commits and blobs may come from a
 *   store outside this repository, which the change can point anywhere and rewrite after the run.
 */
export interface HistoryGapInput {
  shallowFile: string;
  alternatesFile: string;
  base: Pick<ChangeSetBase, 'commit' | 'source'>;
  head: string | null;
  env?: NodeJS.ProcessEnv;
}

const COMMIT_ID = /^[0-9a-f]{40,64}$/;

export async function historyGap(git: GitRunner, input: HistoryGapInput): Promise<string | null> {
  const [shallow, alternates] = await Promise.all([listed(input.shallowFile), listed(input.alternatesFile)]);
  const borrowed = (input.env ?? process.env).GIT_ALTERNATE_OBJECT_DIRECTORIES;
  if (alternates.length > 0 || borrowed) {
    const where = alternates.length > 0 ? '.git/objects/info/alternates' : 'GIT_ALTERNATE_OBJECT_DIRECTORIES';
    return `the repository borrows objects from another store (${where}), so the commits since the base may not be its own; run \`git repack -a -d\` and remove ${where}`;
  }
  if (shallow.length === 0 || input.head === null) return null;
  const { commit, source } = input.base;
  if (commit !== null && source !== 'head' && shallow.every((line) => COMMIT_ID.test(line))) {
    // Every shallow commit at or under the base: nothing since the base is cut off.
    const above = await git.run(['rev-list', '--max-count=1', ...shallow, '--not', commit, '--']);
    if (above.exitCode === 0 && above.stdout.trim() === '') return null;
  }
  return 'the clone is shallow and its history is cut off after the base (.git/shallow), so commits since the base are missing; run `git fetch --unshallow` (in CI: actions/checkout with fetch-depth: 0)';
}

/** The non-empty, non-comment lines of a file git keeps one entry a line in; none when it does not exist. */
async function listed(path: string): Promise<string[]> {
  const text = await readFile(path, 'utf8').catch(() => '');
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}
