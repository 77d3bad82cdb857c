import { TollgateError } from '../../../../core/errors.js';
import { GithubError } from '../../github-error.js';
import { UNRESOLVE_THREAD_MUTATION } from '../../graphql-documents.js';
import { threadUnresolutionSchema } from '../graphql-shapes.js';
import { formatPullRequest, type PullRequestRef } from '../review-thread.js';
import { readReviewState, samePr, updateReviewState } from '../state.js';
import { resolveRepository } from '../target.js';
import { readThreadSnapshot } from '../thread-snapshot.js';
import { failureReason } from './failure.js';
import { type FixCommentsOptions, type FixCommentsResult, type FixStatus, now } from './types.js';

/** `--unresolve THREAD`: reopen a thread tollgate (or anyone) resolved by mistake. */
export async function runUnresolve(options: FixCommentsOptions, threadId: string): Promise<FixCommentsResult> {
  const state = await readReviewState(options.repoRoot);
  const repository = await resolveRepository(options);
  const scanPr = state.lastScan?.pr;
  const prNumber =
    options.pr ??
    (scanPr &&
    scanPr.owner.toLowerCase() === repository.owner.toLowerCase() &&
    scanPr.name.toLowerCase() === repository.name.toLowerCase()
      ? scanPr.number
      : undefined);
  if (prNumber === undefined) throw new TollgateError('usage', '--unresolve: name the PR with --pr N');
  const pr: PullRequestRef = { owner: repository.owner, name: repository.name, number: prNumber };
  const client = await options.connect(repository);
  const snapshot = await readThreadSnapshot(client, threadId, pr);
  let line: string;
  let status: FixStatus = 'applied';
  if (!snapshot.isResolved) line = `${threadId} is not resolved; nothing to do`;
  else if (!snapshot.canUnresolve) {
    line = `${threadId}: GitHub says you may not unresolve this thread (viewerCanUnresolve: false)`;
    status = 'blocked';
  } else if (options.dryRun) {
    line = `dry run: would unresolve ${threadId} on ${formatPullRequest(pr)}`;
    status = 'dry_run';
  } else {
    try {
      const answer = await client.request(UNRESOLVE_THREAD_MUTATION, { threadId }, threadUnresolutionSchema);
      if (answer.unresolveReviewThread?.thread?.isResolved !== false) {
        throw new GithubError('graphql_failed', 'GitHub answered the unresolve but the thread is still resolved');
      }
      line = `unresolved ${threadId} on ${formatPullRequest(pr)}; run \`tollgate comments\` to triage it again`;
    } catch (error) {
      line = `${threadId}: could not unresolve: ${failureReason(error, options.redact)}`;
      status = 'failed';
    }
    await recordUnresolve(options, { pr, threadId, failed: status === 'failed', line });
  }
  const text = options.json ? `${JSON.stringify({ pr, threadId, status, message: line }, null, 2)}\n` : `${line}\n`;
  return {
    text: options.redact(text),
    exitCode: status === 'failed' || status === 'blocked' ? 1 : 0,
    status,
    mutationsSent: client.mutationsSent,
  };
}

async function recordUnresolve(
  options: FixCommentsOptions,
  input: { pr: PullRequestRef; threadId: string; failed: boolean; line: string },
): Promise<void> {
  const { pr, threadId, failed } = input;
  const at = now(options);
  await updateReviewState(options.repoRoot, (next) => {
    next.history.push({
      at,
      pr,
      threadId,
      classification: null,
      result: failed ? 'failed' : 'unresolved',
      ...(failed ? { reason: input.line.slice(0, 500) } : {}),
    });
    if (next.lastScan && samePr(next.lastScan.pr, pr)) {
      for (const thread of next.lastScan.threads) if (thread.threadId === threadId) thread.isResolved = failed;
    }
    next.lifecycle = failed
      ? { phase: 'blocked', reason: 'an unresolve failed', at, pr }
      : { phase: 'review_triage', reason: `${threadId} was reopened`, at, pr };
  });
}
