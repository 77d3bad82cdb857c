/**
 * The in-memory GitHub behind the fake GraphQL server: pull requests, review threads and comments, plus knobs for
 * the scenarios the tests need (pending review, rate limits, failing mutations). Tests build one with
 * `createWorld()` and mutate it between steps (a reviewer adds a comment, someone resolves a thread).
 */
export interface FakeComment {
  id: string;
  databaseId: number;
  author: string;
  authorType: 'User' | 'Bot';
  authorAssociation: string;
  body: string;
  createdAt: string;
  byViewer: boolean;
  state: 'PENDING' | 'SUBMITTED';
}

export interface FakeThread {
  id: string;
  path: string;
  line: number | null;
  isResolved: boolean;
  isOutdated: boolean;
  viewerCanReply: boolean;
  viewerCanResolve: boolean;
  viewerCanUnresolve: boolean;
  resolvedBy: string | null;
  comments: FakeComment[];
}

export interface FakePullRequest {
  owner: string;
  name: string;
  number: number;
  headRefName: string;
  headRefOid: string;
  /** The viewer has an unsubmitted review: replies join it (state PENDING), as on GitHub. */
  viewerPendingReview: boolean;
  threads: FakeThread[];
}

/** A CI result on a commit: a check run (status/conclusion as GitHub spells them) or a commit status. */
export type FakeCheck =
  | { kind: 'check_run'; name: string; status: string; conclusion: string | null; completedAt?: string }
  | { kind: 'status'; context: string; state: string; createdAt?: string };

export type MutationAnswer = 'ok' | 'fail' | 'forbidden' | 'already_resolved' | 'stays_unresolved';

export interface FakeWorld {
  viewer: string;
  pullRequests: FakePullRequest[];
  rateLimit: { remaining: number; resetAt: string };
  /** How the next mutations of each kind answer. */
  answers: { reply: MutationAnswer; resolve: MutationAnswer; unresolve: MutationAnswer };
  /** The next N requests get a secondary rate limit (HTTP 403 + retry-after). */
  secondaryLimitResponses: number;
  /** Check runs and statuses by commit id (`object(oid:)` answers a Commit only for the ids listed here). */
  checks: Record<string, FakeCheck[]>;
  /** The repository's default branch (`defaultBranchRef`). */
  defaultBranch: string;
  /** Branch protection rules by branch name (`Ref.branchProtectionRule`): the rule's pattern. */
  branchProtection: Record<string, string>;
  /** Ruleset rules that apply to a branch (`Ref.rules`), as GitHub's RepositoryRuleType names them. */
  rulesets: Record<string, string[]>;
  /** Every operation the server executed, in order. */
  operations: Array<{ name: string; kind: 'query' | 'mutation'; variables: Record<string, unknown> }>;
  /** Run just before a mutation executes (a reviewer comments, someone resolves the thread…). */
  beforeMutation?: (name: string, variables: Record<string, unknown>) => void;
}

let counter = 0;

export function createWorld(partial: Partial<FakeWorld> = {}): FakeWorld {
  return {
    viewer: 'tollgate-bot',
    pullRequests: [],
    rateLimit: { remaining: 5000, resetAt: '2030-01-01T00:00:00Z' },
    answers: { reply: 'ok', resolve: 'ok', unresolve: 'ok' },
    secondaryLimitResponses: 0,
    checks: {},
    defaultBranch: 'main',
    branchProtection: {},
    rulesets: {},
    operations: [],
    ...partial,
  };
}

export function mutationsOf(world: FakeWorld): FakeWorld['operations'] {
  return world.operations.filter((operation) => operation.kind === 'mutation');
}

export function addPullRequest(world: FakeWorld, partial: Partial<FakePullRequest> = {}): FakePullRequest {
  const pr: FakePullRequest = {
    owner: 'acme',
    name: 'widgets',
    number: 7,
    headRefName: 'feature',
    headRefOid: 'a'.repeat(40),
    viewerPendingReview: false,
    threads: [],
    ...partial,
  };
  world.pullRequests.push(pr);
  return pr;
}

export function comment(partial: Partial<FakeComment> & { body: string }): FakeComment {
  counter++;
  return {
    id: `PRRC_${counter}`,
    databaseId: 1000 + counter,
    author: 'alice',
    authorType: 'User',
    authorAssociation: 'MEMBER',
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, counter)).toISOString(),
    byViewer: false,
    state: 'SUBMITTED',
    ...partial,
  };
}

export function addThread(
  pr: FakePullRequest,
  partial: Partial<Omit<FakeThread, 'comments'>> & { comments: FakeComment[] },
): FakeThread {
  counter++;
  const thread: FakeThread = {
    id: `PRRT_${counter}`,
    path: 'src/index.ts',
    line: 10,
    isResolved: false,
    isOutdated: false,
    viewerCanReply: true,
    viewerCanResolve: true,
    viewerCanUnresolve: true,
    resolvedBy: null,
    ...partial,
  };
  pr.threads.push(thread);
  return thread;
}
