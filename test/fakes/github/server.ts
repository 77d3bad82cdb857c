import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { schema as githubSchema } from '@octokit/graphql-schema';
import {
  buildSchema,
  type DocumentNode,
  type ExecutionResult,
  execute,
  GraphQLError,
  type GraphQLSchema,
  parse,
  validate,
} from 'graphql';
import type { FakeCheck, FakeComment, FakePullRequest, FakeThread, FakeWorld } from './world.js';

/**
 * A GitHub GraphQL endpoint on 127.0.0.1 that executes requests against GitHub's real schema
 * (`@octokit/graphql-schema`) over an in-memory world, so tollgate's real documents, pagination and mutations run
 * end to end. Only the fields tollgate asks for are backed; anything else resolves to null.
 */
let schemaCache: GraphQLSchema | undefined;
function schema(): GraphQLSchema {
  schemaCache ??= buildSchema(githubSchema.idl, { assumeValidSDL: true });
  return schemaCache;
}

/**
 * Each query text parsed and validated against the schema once per worker, as `graphql()` would on every request:
 * tollgate sends the same few documents again and again, and validating one against GitHub's whole schema is most of
 * what a request costs here. Executing still happens per request, over that request's world and variables.
 */
const prepared = new Map<string, { document: DocumentNode; invalid: readonly GraphQLError[] }>();
function prepare(query: string): { document: DocumentNode; invalid: readonly GraphQLError[] } {
  let known = prepared.get(query);
  if (!known) {
    const document = parse(query);
    known = { document, invalid: validate(schema(), document) };
    prepared.set(query, known);
  }
  return known;
}

export interface FakeGithubServer {
  url: string;
  world: FakeWorld;
  /** Requests received (including refused ones). */
  requests: number;
  close(): Promise<void>;
}

class GithubFailure extends GraphQLError {
  constructor(
    message: string,
    readonly githubType: string,
  ) {
    super(message);
  }
}

export async function startFakeGithub(world: FakeWorld): Promise<FakeGithubServer> {
  const state = { requests: 0 };
  const server = createServer((request, response) => {
    state.requests++;
    void handle(world, request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    world,
    get requests() {
      return state.requests;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function handle(world: FakeWorld, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    response.writeHead(status, {
      'content-type': 'application/json',
      'x-ratelimit-remaining': String(world.rateLimit.remaining),
      'x-ratelimit-reset': String(Math.floor(Date.parse(world.rateLimit.resetAt) / 1000)),
      ...headers,
    });
    response.end(JSON.stringify(body));
  };
  if (!request.headers.authorization) return send(401, { message: 'Bad credentials' });
  if (world.secondaryLimitResponses > 0) {
    world.secondaryLimitResponses--;
    return send(
      403,
      { message: 'You have exceeded a secondary rate limit. Please wait a few minutes.' },
      { 'retry-after': '7' },
    );
  }
  const { query, variables = {} } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
    query: string;
    variables?: Record<string, unknown>;
  };
  const { document, invalid } = prepare(query);
  const definition = document.definitions[0];
  const kind = definition && 'operation' in definition && definition.operation === 'mutation' ? 'mutation' : 'query';
  const name = definition && 'name' in definition && definition.name ? definition.name.value : 'anonymous';
  if (world.rateLimit.remaining <= 0) {
    return send(200, { errors: [{ type: 'RATE_LIMITED', message: 'API rate limit exceeded for user ID 1.' }] });
  }
  if (kind === 'mutation') world.beforeMutation?.(name, variables);
  world.operations.push({ name, kind, variables });
  world.rateLimit.remaining--;
  const result: ExecutionResult =
    invalid.length > 0
      ? { errors: invalid }
      : await execute({ schema: schema(), document, rootValue: root(world), variableValues: variables });
  const errors = result.errors?.map((error) => ({
    message: error.message,
    path: error.path,
    ...(error.originalError instanceof GithubFailure ? { type: error.originalError.githubType } : {}),
  }));
  send(200, { ...(result.data !== undefined ? { data: result.data } : {}), ...(errors ? { errors } : {}) });
}

function connection<T, R>(
  items: readonly T[],
  args: { first?: number; after?: string; last?: number },
  map: (item: T) => R,
) {
  let start = args.after ? Number(args.after.replace('cursor:', '')) + 1 : 0;
  let end = args.first !== undefined ? start + args.first : items.length;
  if (args.last !== undefined) start = Math.max(start, items.length - args.last);
  end = Math.min(end, items.length);
  return {
    totalCount: items.length,
    pageInfo: {
      hasNextPage: end < items.length,
      hasPreviousPage: start > 0,
      endCursor: end > start ? `cursor:${end - 1}` : null,
      startCursor: end > start ? `cursor:${start}` : null,
    },
    nodes: items.slice(start, end).map(map),
  };
}

function checkObject(check: FakeCheck) {
  return check.kind === 'check_run'
    ? {
        __typename: 'CheckRun',
        name: check.name,
        status: check.status,
        conclusion: check.conclusion,
        completedAt: check.completedAt ?? (check.status === 'COMPLETED' ? '2026-06-01T00:00:00Z' : null),
        detailsUrl: null,
      }
    : {
        __typename: 'StatusContext',
        context: check.context,
        state: check.state,
        createdAt: check.createdAt ?? '2026-06-01T00:00:00Z',
        targetUrl: null,
      };
}

function root(world: FakeWorld) {
  const findThread = (id: unknown) => {
    for (const pr of world.pullRequests) {
      const thread = pr.threads.find((candidate) => candidate.id === id);
      if (thread) return { pr, thread };
    }
    throw new GithubFailure(`Could not resolve to a node with the global id of '${String(id)}'`, 'NOT_FOUND');
  };
  const commentObject = (pr: FakePullRequest, thread: FakeThread) => (c: FakeComment) => ({
    __typename: 'PullRequestReviewComment',
    id: c.id,
    fullDatabaseId: String(c.databaseId),
    author: { login: c.author, __typename: c.authorType },
    authorAssociation: c.authorAssociation,
    body: c.body,
    path: thread.path,
    line: thread.line,
    createdAt: c.createdAt,
    updatedAt: c.createdAt,
    url: `https://github.com/${pr.owner}/${pr.name}/pull/${pr.number}#discussion_r${c.databaseId}`,
    isMinimized: false,
    viewerCanUpdate: c.byViewer,
    viewerCanDelete: c.byViewer,
    viewerDidAuthor: c.byViewer,
    state: c.state,
  });
  const threadObject = (pr: FakePullRequest) => (t: FakeThread) => ({
    __typename: 'PullRequestReviewThread',
    id: t.id,
    isResolved: t.isResolved,
    isOutdated: t.isOutdated,
    path: t.path,
    line: t.line,
    startLine: null,
    originalStartLine: null,
    subjectType: 'LINE',
    viewerCanReply: t.viewerCanReply,
    viewerCanResolve: t.viewerCanResolve && !t.isResolved,
    viewerCanUnresolve: t.viewerCanUnresolve && t.isResolved,
    resolvedBy: t.resolvedBy ? { login: t.resolvedBy } : null,
    pullRequest: () => prObject(pr),
    comments: (args: { first?: number; after?: string; last?: number }) =>
      connection(t.comments, args, commentObject(pr, t)),
  });
  const prObject = (pr: FakePullRequest) => ({
    __typename: 'PullRequest',
    id: `PR_${pr.number}`,
    number: pr.number,
    url: `https://github.com/${pr.owner}/${pr.name}/pull/${pr.number}`,
    state: 'OPEN',
    headRefOid: pr.headRefOid,
    headRefName: pr.headRefName,
    repository: { nameWithOwner: `${pr.owner}/${pr.name}` },
    reviews: (args: { states?: string[] }) => ({
      nodes:
        pr.viewerPendingReview && args.states?.includes('PENDING')
          ? [{ id: 'PRR_pending', viewerDidAuthor: true }]
          : [],
    }),
    reviewThreads: (args: { first?: number; after?: string }) => connection(pr.threads, args, threadObject(pr)),
  });
  const input = (args: { input: Record<string, unknown> }) => args.input;

  return {
    viewer: { login: world.viewer },
    rateLimit: () => ({ cost: 1, remaining: world.rateLimit.remaining, resetAt: world.rateLimit.resetAt, limit: 5000 }),
    repository: ({ owner, name }: { owner: string; name: string }) => {
      const prs = world.pullRequests.filter((pr) => pr.owner === owner && pr.name === name);
      if (prs.length === 0)
        throw new GithubFailure(`Could not resolve to a Repository with the name '${owner}/${name}'.`, 'NOT_FOUND');
      return {
        nameWithOwner: `${owner}/${name}`,
        defaultBranchRef: { name: world.defaultBranch },
        ref: ({ qualifiedName }: { qualifiedName: string }) => {
          const branch = qualifiedName.replace(/^refs\/heads\//, '');
          const pattern = world.branchProtection[branch];
          const rules = world.rulesets[branch] ?? [];
          return {
            name: branch,
            prefix: 'refs/heads/',
            branchProtectionRule: pattern === undefined ? null : { pattern },
            rules: (args: { first?: number; after?: string }) => connection(rules, args, (type) => ({ type })),
          };
        },
        pullRequest: ({ number }: { number: number }) => {
          const pr = prs.find((candidate) => candidate.number === number);
          if (!pr)
            throw new GithubFailure(`Could not resolve to a PullRequest with the number of ${number}.`, 'NOT_FOUND');
          return prObject(pr);
        },
        pullRequests: ({ headRefName }: { headRefName?: string }) => ({
          nodes: prs.filter((pr) => pr.headRefName === headRefName).map(prObject),
        }),
        object: ({ oid }: { oid: string }) => {
          const checks = world.checks[oid];
          if (!checks) return null;
          return {
            __typename: 'Commit',
            oid,
            statusCheckRollup:
              checks.length === 0
                ? null
                : { contexts: (args: { first?: number; after?: string }) => connection(checks, args, checkObject) },
          };
        },
      };
    },
    node: ({ id }: { id: string }) => {
      const { pr, thread } = findThread(id);
      return threadObject(pr)(thread);
    },
    addPullRequestReviewThreadReply: (args: { input: Record<string, unknown> }) => {
      const { pullRequestReviewThreadId, body } = input(args) as { pullRequestReviewThreadId: string; body: string };
      const { pr, thread } = findThread(pullRequestReviewThreadId);
      if (world.answers.reply === 'fail') throw new GithubFailure(`Body could not be posted: ${body}`, 'UNPROCESSABLE');
      if (world.answers.reply === 'forbidden')
        throw new GithubFailure('Resource not accessible by integration', 'FORBIDDEN');
      const reply: FakeComment = {
        id: `PRRC_reply_${thread.comments.length}_${thread.id}`,
        databaseId: 900000 + thread.comments.length,
        author: world.viewer,
        authorType: 'Bot',
        authorAssociation: 'NONE',
        body,
        createdAt: new Date(Date.UTC(2026, 5, 1)).toISOString(),
        byViewer: true,
        state: pr.viewerPendingReview ? 'PENDING' : 'SUBMITTED',
      };
      thread.comments.push(reply);
      return { comment: commentObject(pr, thread)(reply) };
    },
    resolveReviewThread: (args: { input: Record<string, unknown> }) => {
      const { pr, thread } = findThread(input(args).threadId);
      switch (world.answers.resolve) {
        case 'forbidden':
          throw new GithubFailure('Resource not accessible by integration', 'FORBIDDEN');
        case 'fail':
          throw new GithubFailure('Something went wrong while executing your query.', 'INTERNAL');
        case 'already_resolved':
          thread.isResolved = true;
          throw new GithubFailure('Thread is already resolved', 'UNPROCESSABLE');
        case 'stays_unresolved':
          return { thread: threadObject(pr)(thread) };
        case 'ok':
          thread.isResolved = true;
          thread.resolvedBy = world.viewer;
          return { thread: threadObject(pr)(thread) };
      }
    },
    unresolveReviewThread: (args: { input: Record<string, unknown> }) => {
      const { pr, thread } = findThread(input(args).threadId);
      if (world.answers.unresolve !== 'ok') throw new GithubFailure('Something went wrong', 'INTERNAL');
      thread.isResolved = false;
      thread.resolvedBy = null;
      return { thread: threadObject(pr)(thread) };
    },
  };
}
