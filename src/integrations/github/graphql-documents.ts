/**
 * Every GraphQL document tollgate sends to GitHub. Each is a constant so that `graphql-documents.test.ts` can
 * validate it against GitHub's published schema (`@octokit/graphql-schema`); that validation does not check
 * connection sizes, so page sizes are checked there too (GitHub allows `first`/`last` of 1 to 100).
 *
 * Every query asks for `rateLimit` so the client can stop above the configured floor instead of running dry
 * (https://docs.github.com/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api).
 */

/** GitHub's bound on `first` / `last` of any connection. */
export const MAX_PAGE_SIZE = 100;

const RATE_LIMIT_FIELDS = 'rateLimit { cost remaining resetAt }';

const COMMENT_FIELDS = `
  id
  fullDatabaseId
  author { login __typename }
  authorAssociation
  body
  path
  line
  createdAt
  updatedAt
  url
  isMinimized
  viewerCanUpdate
  viewerCanDelete
  viewerDidAuthor
  state
`;

const THREAD_FIELDS = `
  id
  isResolved
  isOutdated
  path
  line
  startLine
  originalStartLine
  subjectType
  viewerCanReply
  viewerCanResolve
  viewerCanUnresolve
  resolvedBy { login }
`;

/**
 * One page of a pull request's review threads, each with its first page of comments. Also: who we are, the PR head
 * (check evidence must be for the pushed commit), and the viewer's pending reviews (a reply made while one is open
 * joins it and stays invisible until it is submitted).
 */
export const REVIEW_THREADS_QUERY = `query TollgateReviewThreads($owner: String!, $name: String!, $number: Int!, $threadsFirst: Int!, $threadCursor: String, $commentsFirst: Int!) {
  ${RATE_LIMIT_FIELDS}
  viewer { login }
  repository(owner: $owner, name: $name) {
    nameWithOwner
    pullRequest(number: $number) {
      id
      number
      url
      state
      headRefOid
      pendingReviews: reviews(states: [PENDING], first: 20) { nodes { id viewerDidAuthor } }
      reviewThreads(first: $threadsFirst, after: $threadCursor) {
        totalCount
        pageInfo { hasNextPage endCursor }
        nodes {
          ${THREAD_FIELDS}
          comments(first: $commentsFirst) {
            totalCount
            pageInfo { hasNextPage endCursor }
            nodes { ${COMMENT_FIELDS} }
          }
        }
      }
    }
  }
}`;

/** The next page of one thread's comments, for threads with more than fit in the thread page. */
export const THREAD_COMMENTS_QUERY = `query TollgateReviewThreadComments($threadId: ID!, $commentsFirst: Int!, $commentsCursor: String) {
  ${RATE_LIMIT_FIELDS}
  node(id: $threadId) {
    __typename
    ... on PullRequestReviewThread {
      id
      comments(first: $commentsFirst, after: $commentsCursor) {
        pageInfo { hasNextPage endCursor }
        nodes { ${COMMENT_FIELDS} }
      }
    }
  }
}`;

/** How many of a thread's last comments the pre-mutation re-read looks at for our own earlier reply. */
export const SNAPSHOT_LAST_COMMENTS = 20;

/**
 * The re-read just before a mutation: is the thread still what the scan saw (same PR, same latest comment, same
 * resolved state), may we act on it, and is a pending review of ours waiting to swallow a reply?
 */
export const THREAD_SNAPSHOT_QUERY = `query TollgateReviewThreadSnapshot($threadId: ID!, $lastComments: Int!) {
  ${RATE_LIMIT_FIELDS}
  viewer { login }
  node(id: $threadId) {
    __typename
    ... on PullRequestReviewThread {
      ${THREAD_FIELDS}
      pullRequest {
        number
        headRefOid
        repository { nameWithOwner }
        pendingReviews: reviews(states: [PENDING], first: 20) { nodes { id viewerDidAuthor } }
      }
      comments(last: $lastComments) {
        totalCount
        nodes { ${COMMENT_FIELDS} }
      }
    }
  }
}`;

/** The open pull requests whose head is this branch, newest first. */
export const PULL_REQUEST_FOR_BRANCH_QUERY = `query TollgatePullRequestForBranch($owner: String!, $name: String!, $branch: String!) {
  ${RATE_LIMIT_FIELDS}
  repository(owner: $owner, name: $name) {
    pullRequests(headRefName: $branch, states: [OPEN], first: 5, orderBy: { field: UPDATED_AT, direction: DESC }) {
      nodes { number url headRefName }
    }
  }
}`;

/**
 * The CI results GitHub holds for one commit: check runs (GitHub Actions and other apps) and commit statuses, one
 * page of the rollup's contexts at a time. Evidence for resolving a thread when a team's tests run only in CI.
 */
export const COMMIT_CHECKS_QUERY = `query TollgateCommitChecks($owner: String!, $name: String!, $oid: GitObjectID!, $contextsCursor: String) {
  ${RATE_LIMIT_FIELDS}
  repository(owner: $owner, name: $name) {
    object(oid: $oid) {
      __typename
      ... on Commit {
        oid
        statusCheckRollup {
          contexts(first: 100, after: $contextsCursor) {
            pageInfo { hasNextPage endCursor }
            nodes {
              __typename
              ... on CheckRun { name status conclusion completedAt detailsUrl }
              ... on StatusContext { context state createdAt targetUrl }
            }
          }
        }
      }
    }
  }
}`;

/**
 * What decides whether tollgate may commit to and push a branch: the PR's head branch, the repository's default
 * branch, and the branch protection rule and ruleset rules that apply to the branch checked out locally.
 */
export const BRANCH_PROTECTION_QUERY = `query TollgateBranchProtection($owner: String!, $name: String!, $number: Int!, $ref: String!) {
  ${RATE_LIMIT_FIELDS}
  repository(owner: $owner, name: $name) {
    defaultBranchRef { name }
    pullRequest(number: $number) { headRefName }
    ref(qualifiedName: $ref) {
      name
      branchProtectionRule { pattern }
      rules(first: 100) { nodes { type } }
    }
  }
}`;

/**
 * No `pullRequestReviewId`: the reply must not join a pending review. The comment's `state` tells us whether it
 * was published (SUBMITTED) or swallowed by one (PENDING).
 */
export const ADD_THREAD_REPLY_MUTATION = `mutation TollgateAddReviewThreadReply($threadId: ID!, $body: String!) {
  addPullRequestReviewThreadReply(input: { pullRequestReviewThreadId: $threadId, body: $body }) {
    comment { id url state }
  }
}`;

export const RESOLVE_THREAD_MUTATION = `mutation TollgateResolveReviewThread($threadId: ID!) {
  resolveReviewThread(input: { threadId: $threadId }) {
    thread { id isResolved }
  }
}`;

export const UNRESOLVE_THREAD_MUTATION = `mutation TollgateUnresolveReviewThread($threadId: ID!) {
  unresolveReviewThread(input: { threadId: $threadId }) {
    thread { id isResolved }
  }
}`;

/** Every document, by name, for the validation test and the fake server's mutation counter. */
export const GRAPHQL_DOCUMENTS = {
  REVIEW_THREADS_QUERY,
  THREAD_COMMENTS_QUERY,
  THREAD_SNAPSHOT_QUERY,
  PULL_REQUEST_FOR_BRANCH_QUERY,
  COMMIT_CHECKS_QUERY,
  BRANCH_PROTECTION_QUERY,
  ADD_THREAD_REPLY_MUTATION,
  RESOLVE_THREAD_MUTATION,
  UNRESOLVE_THREAD_MUTATION,
} as const;
