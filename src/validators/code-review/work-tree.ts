import { createHash } from 'node:crypto';
import { createGitRunner } from '../../core/change-set/git.js';
import { locateRepo } from '../../core/change-set/locate-repo.js';
import { withTempIndex } from '../../core/change-set/temp-index.js';

/**
 * A fingerprint of the whole working tree: HEAD plus the blob id of every tracked and untracked (not ignored) file,
 * `.tollgate/` excepted, read through the change set's private temporary index so the user's index is never touched.
 * Taken before and after the reviews: a reviewer is read-only, and one that changed the tree anyway fails the review.
 */
export async function snapshotWorkTree(repoRoot: string): Promise<string> {
  const location = await locateRepo(repoRoot);
  const git = createGitRunner(location.root);
  const head = await git.run(['rev-parse', '--verify', '--quiet', 'HEAD']);
  const userIndex = { path: location.indexPath, objectFormat: location.objectFormat };
  return withTempIndex(git, userIndex, async ({ env, staged }) => {
    // The listing must wait for `git add -A` to finish filling the index (and to release its lock).
    await staged;
    const entries = await git.output(['ls-files', '--stage', '-z'], { env });
    return `${head.stdout.trim() || 'no-head'}:${createHash('sha256').update(entries).digest('hex')}`;
  });
}

/**
 * The last commit's message (subject, then body): the fallback PR title and description. Null when there is none, or
 * when HEAD is the base itself (its message then describes an older change, not this one).
 */
export async function lastCommitMessage(
  repoRoot: string,
  baseCommit: string | null,
): Promise<{ title: string; description: string } | null> {
  const result = await createGitRunner(repoRoot).run(['log', '-1', '--format=%H%n%B']);
  if (result.exitCode !== 0) return null;
  const [head, ...message] = result.stdout.trim().split('\n');
  if (head === baseCommit) return null;
  const [subject = '', ...body] = message;
  if (!subject.trim()) return null;
  return { title: subject.trim(), description: body.join('\n').trim() };
}
