/**
 * The normalized review thread. Thread ids (`PRRT_…`) and comment ids
 * (`PRRC_…`) are kept apart: only a thread id may be resolved. Fields beyond the seed's model are marked.
 */
export interface ReviewComment {
  id: string;
  /** `fullDatabaseId` (a BigInt GitHub sends as a string) when it fits a safe integer. */
  databaseId: number | null;
  author: string | null;
  authorAssociation: string | null;
  body: string;
  path: string | null;
  line: number | null;
  createdAt: string | null;
  updatedAt: string | null;
  url: string | null;
  isMinimized: boolean;
  viewerCanUpdate: boolean;
  viewerCanDelete: boolean;
  /** Beyond the seed: the comment is ours (our earlier reply). */
  viewerDidAuthor: boolean;
  /** Beyond the seed: PENDING while it sits in an unsubmitted review (invisible to others). */
  state: 'PENDING' | 'SUBMITTED';
}

export interface ReviewThread {
  threadId: string;
  prNumber: number;
  path: string | null;
  line: number | null;
  startLine: number | null;
  isResolved: boolean;
  isOutdated: boolean;
  author: string | null;
  authorAssociation: string | null;
  firstComment: ReviewComment | null;
  comments: ReviewComment[];
  latestComment: ReviewComment | null;
  createdAt: string | null;
  updatedAt: string | null;
  url: string | null;
  source: 'github-graphql';
  canResolve: boolean;
  canReply: boolean;
  /** Beyond the seed: for `fix-comments --unresolve`. */
  canUnresolve: boolean;
  /** Beyond the seed: who resolved it, when resolved. */
  resolvedBy: string | null;
}

/** A pull request and what the scan learned about it besides its threads. */
export interface PullRequestRef {
  owner: string;
  name: string;
  number: number;
}

export function formatPullRequest(pr: PullRequestRef): string {
  return `${pr.owner}/${pr.name}#${pr.number}`;
}
