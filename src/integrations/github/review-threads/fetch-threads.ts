import { GithubError } from '../github-error.js';
import type { GraphqlClient } from '../graphql-client.js';
import { MAX_PAGE_SIZE, REVIEW_THREADS_QUERY, THREAD_COMMENTS_QUERY } from '../graphql-documents.js';
import { type RawComment, reviewThreadsPageSchema, threadCommentsPageSchema } from './graphql-shapes.js';
import { normalizeThread } from './normalize.js';
import { formatPullRequest, type PullRequestRef, type ReviewThread } from './review-thread.js';

export interface FetchedThreads {
  pr: PullRequestRef & { url: string; headRefOid: string; state: string };
  viewer: string;
  /** Pending reviews of ours on the PR: a reply would join one and stay invisible. */
  pendingReviewIds: string[];
  threads: ReviewThread[];
  /** GitHub's count of all threads on the PR. */
  totalCount: number;
  /** False when `maxThreads` stopped the scan before the last page. */
  complete: boolean;
  requests: number;
}

export interface FetchThreadsOptions {
  client: GraphqlClient;
  pr: PullRequestRef;
  maxThreads: number;
  /** Comments in the thread page (the rest are paged per thread). Default 50: long bot comments make pages big. */
  commentsFirst?: number;
}

/**
 * Pages every review thread of the PR (100 per page, cursor after cursor) up to `maxThreads`, then pages the
 * comments of every thread that has more than the first page. A cursor that repeats or is missing stops the scan
 * with an error rather than looping or silently dropping threads.
 */
export async function fetchReviewThreads(options: FetchThreadsOptions): Promise<FetchedThreads> {
  const { client, pr } = options;
  const commentsFirst = Math.min(options.commentsFirst ?? 50, MAX_PAGE_SIZE);
  const threads: ReviewThread[] = [];
  const seenCursors = new Set<string>();
  let cursor: string | null = null;
  let requests = 0;
  let complete = true;
  let head: Omit<FetchedThreads, 'threads' | 'complete' | 'requests'> | null = null;

  for (;;) {
    const threadsFirst = Math.min(MAX_PAGE_SIZE, options.maxThreads - threads.length);
    const page = await client.request(
      REVIEW_THREADS_QUERY,
      {
        owner: pr.owner,
        name: pr.name,
        number: pr.number,
        threadsFirst,
        threadCursor: cursor ?? undefined,
        commentsFirst,
      },
      reviewThreadsPageSchema,
    );
    requests++;
    const pullRequest = page.repository?.pullRequest;
    if (!page.repository) {
      throw new GithubError('not_found', `${pr.owner}/${pr.name}: repository not found, or the token cannot see it`);
    }
    if (!pullRequest) throw new GithubError('not_found', `${formatPullRequest(pr)}: pull request not found`);
    head ??= {
      pr: { ...pr, url: pullRequest.url, headRefOid: pullRequest.headRefOid, state: pullRequest.state },
      viewer: page.viewer.login,
      pendingReviewIds: pullRequest.pendingReviews.nodes.filter((review) => review.viewerDidAuthor).map((r) => r.id),
      totalCount: pullRequest.reviewThreads.totalCount,
    };
    for (const raw of pullRequest.reviewThreads.nodes) {
      const comments = [...raw.comments.nodes];
      if (raw.comments.pageInfo.hasNextPage) {
        requests += await pageRemainingComments(client, raw.id, raw.comments.pageInfo.endCursor, comments);
      }
      threads.push(normalizeThread(raw, pr.number, comments));
    }
    const { hasNextPage, endCursor } = pullRequest.reviewThreads.pageInfo;
    if (!hasNextPage) break;
    if (threads.length >= options.maxThreads) {
      complete = false;
      break;
    }
    cursor = nextCursor(endCursor, seenCursors, `${formatPullRequest(pr)} review threads`);
  }
  return { ...head!, threads, complete, requests };
}

async function pageRemainingComments(
  client: GraphqlClient,
  threadId: string,
  firstCursor: string | null,
  into: RawComment[],
): Promise<number> {
  const seen = new Set<string>();
  let cursor = nextCursor(firstCursor, seen, `comments of thread ${threadId}`);
  let requests = 0;
  for (;;) {
    const page = await client.request(
      THREAD_COMMENTS_QUERY,
      { threadId, commentsFirst: MAX_PAGE_SIZE, commentsCursor: cursor },
      threadCommentsPageSchema,
    );
    requests++;
    const comments = page.node?.comments;
    if (!comments)
      throw new GithubError('not_found', `review thread ${threadId} disappeared while its comments were read`);
    into.push(...comments.nodes);
    if (!comments.pageInfo.hasNextPage) return requests;
    cursor = nextCursor(comments.pageInfo.endCursor, seen, `comments of thread ${threadId}`);
  }
}

function nextCursor(cursor: string | null, seen: Set<string>, what: string): string {
  if (!cursor) throw new GithubError('bad_response', `GitHub said more ${what} follow but gave no cursor`);
  if (seen.has(cursor)) throw new GithubError('bad_response', `GitHub gave the same cursor twice while paging ${what}`);
  seen.add(cursor);
  return cursor;
}
