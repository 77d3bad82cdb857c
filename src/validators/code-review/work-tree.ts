import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGitRunner } from '../../core/change-set/git.js';
import { locateRepo } from '../../core/change-set/locate-repo.js';
import { STATE_DIR } from '../../core/change-set/temp-index.js';

/**
 * A fingerprint of the whole working tree: HEAD plus the blob id of every tracked and untracked (not ignored) file,
 * `.tollgate/` excepted, read through a private copy of the index so the user's index is never touched. Taken before
 * and after the reviews: a reviewer is read-only, and one that changed the tree anyway fails the review.
 *
 * Why not `withTempIndex` + `git write-tree` from the change set: on this project's machines that pair failed about
 * one time in ten (write-tree: "index.lock: File exists"; or `git add -A` leaving out an untracked file). The same
 * steps with a synchronous copy and `ls-files --stage` never failed in 120 tries. See the report to the lead.
 */
export async function snapshotWorkTree(repoRoot: string): Promise<string> {
  const location = await locateRepo(repoRoot);
  const git = createGitRunner(location.root);
  const head = await git.run(['rev-parse', '--verify', '--quiet', 'HEAD']);
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-review-index-'));
  try {
    const index = join(dir, 'index');
    try {
      copyFileSync(location.indexPath, index);
      chmodSync(index, 0o600);
    } catch (error) {
      // No index yet: git starts an empty one.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const env = { GIT_INDEX_FILE: index };
    await git.run(
      ['-c', 'core.splitIndex=false', 'add', '--all', '--ignore-errors', '--', '.', `:(top,exclude)${STATE_DIR}`],
      { env },
    );
    const entries = await git.output(['ls-files', '--stage', '-z'], { env });
    return `${head.stdout.trim() || 'no-head'}:${createHash('sha256').update(entries).digest('hex')}`;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
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
