import { GithubError } from '../github-error.js';
import type { GraphqlClient } from '../graphql-client.js';
import { SNAPSHOT_LAST_COMMENTS, THREAD_SNAPSHOT_QUERY } from '../graphql-documents.js';
import { type RawThreadSnapshot, threadSnapshotSchema } from './graphql-shapes.js';
import { normalizeComment } from './normalize.js';
import type { PullRequestRef, ReviewComment } from './review-thread.js';

/** A thread as GitHub has it right now, read just before acting on it. */
export interface ThreadSnapshot {
  threadId: string;
  isResolved: boolean;
  isOutdated: boolean;
  canReply: boolean;
  canResolve: boolean;
  canUnresolve: boolean;
  prNumber: number;
  repository: string;
  headRefOid: string;
  /** The viewer's own pending reviews on the PR. */
  pendingReviewIds: string[];
  /** The last few comments, oldest first. */
  lastComments: ReviewComment[];
  latestCommentId: string | null;
}

/**
 * Re-reads a thread and checks it belongs to `pr` (a thread id from a payload may name any thread the token can
 * see; this binds it to the PR the user named, `--detached` included).
 */
export async function readThreadSnapshot(
  client: GraphqlClient,
  threadId: string,
  pr: PullRequestRef,
): Promise<ThreadSnapshot> {
  const answer = await client.request(
    THREAD_SNAPSHOT_QUERY,
    { threadId, lastComments: SNAPSHOT_LAST_COMMENTS },
    threadSnapshotSchema,
  );
  const node = answer.node;
  if (!node)
    throw new GithubError('not_found', `review thread ${threadId}: not found (ids start with PRRT_, not comment ids)`);
  if (node.__typename !== 'PullRequestReviewThread' || !('pullRequest' in node)) {
    throw new GithubError('not_found', `${threadId}: a ${node.__typename}, not a pull request review thread`);
  }
  const thread = node as RawThreadSnapshot;
  const repository = thread.pullRequest.repository.nameWithOwner;
  if (thread.pullRequest.number !== pr.number || repository.toLowerCase() !== `${pr.owner}/${pr.name}`.toLowerCase()) {
    throw new GithubError(
      'not_found',
      `review thread ${threadId} belongs to ${repository}#${thread.pullRequest.number}, not ${pr.owner}/${pr.name}#${pr.number}; tollgate acts only on threads of the named PR`,
    );
  }
  const lastComments = thread.comments.nodes.map(normalizeComment);
  return {
    threadId: thread.id,
    isResolved: thread.isResolved,
    isOutdated: thread.isOutdated,
    canReply: thread.viewerCanReply,
    canResolve: thread.viewerCanResolve,
    canUnresolve: thread.viewerCanUnresolve,
    prNumber: thread.pullRequest.number,
    repository,
    headRefOid: thread.pullRequest.headRefOid,
    pendingReviewIds: thread.pullRequest.pendingReviews.nodes.filter((r) => r.viewerDidAuthor).map((r) => r.id),
    lastComments,
    latestCommentId: lastComments.at(-1)?.id ?? null,
  };
}
