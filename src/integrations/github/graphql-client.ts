import { z } from 'zod';
import { MAX_WAIT_MS, rateLimitWait } from '../../core/http/github-rate-limit.js';
import { GithubError, type GithubFailure } from './github-error.js';
import type { GraphqlHttpResponse, GraphqlTransport } from './transport.js';

/** What the client knows of the GraphQL rate limit after the last answer. */
export interface RateLimitState {
  remaining: number;
  /** ISO time the points come back. */
  resetAt: string | null;
  /** Cost of the last query, when GitHub said. */
  cost: number | null;
}

export interface GraphqlClientOptions {
  transport: GraphqlTransport;
  /** Per request. */
  timeoutMs: number;
  /** Refuse to send when fewer points than this are left (config `reviewComments.rateLimitFloor`). */
  rateLimitFloor: number;
  /** Retries after a rate limit (within core/http/github-rate-limit.ts's bound) or a 502/503/504. Default 3. */
  maxRetries?: number;
  /** Injectable so tests never really wait. */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  signal?: AbortSignal;
  /** Told about each wait, for a progress line. */
  onBackoff?: (waitMs: number, reason: string) => void;
}

export interface GraphqlClient {
  /** Sends `document` and validates `data` with `schema`; throws GithubError. */
  request<Schema extends z.ZodType>(
    document: string,
    variables: Record<string, unknown>,
    schema: Schema,
  ): Promise<z.output<Schema>>;
  readonly rateLimit: RateLimitState | null;
  /** Mutations sent so far (read-only commands assert this stays 0). */
  readonly mutationsSent: number;
}

const SERVER_ERROR_WAIT_MS = 1000;

const envelopeSchema = z.object({
  data: z.unknown().optional(),
  errors: z.array(z.looseObject({ message: z.string().default(''), type: z.string().optional() })).optional(),
  message: z.string().optional(),
});

const rateLimitFieldSchema = z.object({
  rateLimit: z
    .object({
      remaining: z.number(),
      resetAt: z.string().nullable().optional(),
      cost: z.number().nullable().optional(),
    })
    .nullable()
    .optional(),
});

function operationOf(document: string): { kind: 'query' | 'mutation'; name: string } {
  const match = /^\s*(query|mutation)\s+(\w+)/.exec(document);
  return { kind: match?.[1] === 'mutation' ? 'mutation' : 'query', name: match?.[2] ?? 'anonymous' };
}

export function createGraphqlClient(options: GraphqlClientOptions): GraphqlClient {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? Date.now;
  const maxRetries = options.maxRetries ?? 3;
  let rateLimit: RateLimitState | null = null;
  let mutationsSent = 0;

  const checkFloor = (operation: string) => {
    if (!rateLimit || rateLimit.remaining >= options.rateLimitFloor) return;
    throw new GithubError(
      'rate_limited',
      `GitHub GraphQL rate limit: ${rateLimit.remaining} points left, below the floor of ${options.rateLimitFloor} (reviewComments.rateLimitFloor); did not send ${operation}; rerun after ${rateLimit.resetAt ?? 'the hourly reset'}`,
    );
  };

  return {
    get rateLimit() {
      return rateLimit;
    },
    get mutationsSent() {
      return mutationsSent;
    },
    async request(document, variables, schema) {
      const operation = operationOf(document);
      for (let attempt = 0; ; attempt++) {
        checkFloor(operation.name);
        if (operation.kind === 'mutation') mutationsSent++;
        const response = await options.transport.send(
          { query: document, variables: withoutUndefined(variables) },
          { timeoutMs: options.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) },
        );
        updateFromHeaders(response);
        const retry = retryDelay(response, attempt, maxRetries, now());
        if (retry !== null) {
          // A mutation GitHub refused with a limit was not applied: sending it again is safe.
          if (operation.kind === 'mutation') mutationsSent--;
          options.onBackoff?.(retry.waitMs, retry.reason);
          await sleep(retry.waitMs);
          continue;
        }
        const data = readData(response, operation.name);
        const fromBody = rateLimitFieldSchema.safeParse(data);
        if (fromBody.success && fromBody.data.rateLimit) {
          const { remaining, resetAt, cost } = fromBody.data.rateLimit;
          rateLimit = { remaining, resetAt: resetAt ?? null, cost: cost ?? null };
        }
        const parsed = schema.safeParse(data);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          const where = issue && issue.path.length > 0 ? ` at ${issue.path.map(String).join('.')}` : '';
          throw new GithubError(
            'bad_response',
            `GitHub answered ${operation.name} with unexpected data${where}: ${issue?.message ?? 'invalid'}`,
          );
        }
        return parsed.data;
      }
    },
  };

  function updateFromHeaders(response: GraphqlHttpResponse): void {
    const remaining = Number(response.headers['x-ratelimit-remaining']);
    if (response.headers['x-ratelimit-remaining'] === undefined || !Number.isFinite(remaining)) return;
    const reset = Number(response.headers['x-ratelimit-reset']);
    rateLimit = {
      remaining,
      resetAt:
        Number.isFinite(reset) && reset > 0 ? new Date(reset * 1000).toISOString() : (rateLimit?.resetAt ?? null),
      cost: rateLimit?.cost ?? null,
    };
  }
}

function withoutUndefined(variables: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(variables).filter(([, value]) => value !== undefined));
}

/**
 * GitHub's rate limits, read as the REST client reads them (core/http/github-rate-limit.ts): a secondary limit waits
 * `retry-after` (or a minute, doubling); the primary limit (403 with no points left, or GraphQL's `RATE_LIMITED`)
 * waits until `x-ratelimit-reset` when that is within `MAX_WAIT_MS`, and is reported otherwise. A passing server error
 * is retried after a short wait. https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api
 */
function retryDelay(
  response: GraphqlHttpResponse,
  attempt: number,
  maxRetries: number,
  nowMs: number,
): { waitMs: number; reason: string } | null {
  const { status, headers } = response;
  const header = (name: string) => headers[name] ?? null;
  const primary = isPrimaryLimit(response);
  const wait = rateLimitWait(primary && status === 200 ? 403 : status, header, response.body, nowMs, attempt);
  if (wait && primary) {
    // Without a reset time there is nothing to wait for: readData reports it with what GitHub said.
    if (!header('x-ratelimit-reset') || wait.waitMs > MAX_WAIT_MS || attempt >= maxRetries) return null;
    return { waitMs: wait.waitMs, reason: wait.why };
  }
  if (wait) {
    if (attempt >= maxRetries) {
      throw new GithubError(
        'secondary_rate_limited',
        `GitHub secondary rate limit: still limited after ${maxRetries} retries; wait a few minutes before rerunning`,
      );
    }
    if (wait.waitMs > MAX_WAIT_MS) {
      throw new GithubError(
        'secondary_rate_limited',
        `GitHub ${wait.why}; not waiting ${Math.ceil(wait.waitMs / 1000)} s: rerun later`,
      );
    }
    return { waitMs: Math.max(wait.waitMs, 1000), reason: wait.why };
  }
  if (status === 502 || status === 503 || status === 504) {
    if (attempt >= maxRetries) {
      throw new GithubError('network', `GitHub answered HTTP ${status} ${maxRetries + 1} times; rerun later`);
    }
    return { waitMs: SERVER_ERROR_WAIT_MS * 2 ** attempt, reason: `HTTP ${status}` };
  }
  return null;
}

/** No points left: HTTP 403 with `x-ratelimit-remaining: 0`, or a GraphQL answer whose errors say `RATE_LIMITED`. */
function isPrimaryLimit(response: GraphqlHttpResponse): boolean {
  if (response.headers['retry-after'] !== undefined) return false;
  if (response.status === 403 && response.headers['x-ratelimit-remaining'] === '0') return true;
  return (
    response.status === 200 && response.headers['x-ratelimit-remaining'] === '0' && /"RATE_LIMITED"/.test(response.body)
  );
}

function readData(response: GraphqlHttpResponse, operation: string): unknown {
  let json: unknown;
  try {
    json = JSON.parse(response.body);
  } catch {
    if (response.status >= 400) throw httpFailure(response, operation, '');
    throw new GithubError('bad_response', `GitHub answered ${operation} with text that is not JSON`);
  }
  const envelope = envelopeSchema.safeParse(json);
  if (!envelope.success) throw new GithubError('bad_response', `GitHub answered ${operation} with no data`);
  const { errors, data, message } = envelope.data;
  if (errors && errors.length > 0) throw graphqlFailure(errors, operation, response);
  if (response.status >= 400) throw httpFailure(response, operation, message ?? '');
  if (data === undefined || data === null) {
    throw new GithubError('bad_response', `GitHub answered ${operation} with no data`);
  }
  return data;
}

function httpFailure(response: GraphqlHttpResponse, operation: string, message: string): GithubError {
  const said = message ? `: ${message.slice(0, 300)}` : '';
  if (response.status === 401) {
    return new GithubError(
      'auth_required',
      `GitHub refused the credentials (HTTP 401${said}); run \`gh auth login\`, or set GH_TOKEN to a valid token`,
    );
  }
  if (response.status === 403 && response.headers['x-ratelimit-remaining'] === '0') {
    return primaryLimit(response.headers);
  }
  if (response.status === 403) {
    return new GithubError('permission_denied', `GitHub refused ${operation} (HTTP 403${said})`);
  }
  if (response.status === 404) return new GithubError('not_found', `GitHub answered ${operation} with HTTP 404${said}`);
  return new GithubError('graphql_failed', `GitHub answered ${operation} with HTTP ${response.status}${said}`);
}

function primaryLimit(headers: Record<string, string>): GithubError {
  const reset = Number(headers['x-ratelimit-reset']);
  const when = Number.isFinite(reset) && reset > 0 ? new Date(reset * 1000).toISOString() : 'the hourly reset';
  return new GithubError('rate_limited', `GitHub GraphQL rate limit exhausted; rerun after ${when}`, ['RATE_LIMITED']);
}

function graphqlFailure(
  errors: ReadonlyArray<{ message: string; type?: string | undefined }>,
  operation: string,
  response: GraphqlHttpResponse,
): GithubError {
  const types = errors.map((error) => error.type ?? '').filter(Boolean);
  const text = errors
    .map((error) => error.message)
    .filter(Boolean)
    .slice(0, 3)
    .join('; ')
    .slice(0, 500);
  if (types.includes('RATE_LIMITED')) return primaryLimit(response.headers);
  let kind: GithubFailure = 'graphql_failed';
  if (types.includes('NOT_FOUND')) kind = 'not_found';
  else if (types.includes('FORBIDDEN') || /resource not accessible|must have .* permission/i.test(text)) {
    kind = 'permission_denied';
  }
  return new GithubError(kind, `GitHub refused ${operation}: ${text || 'no message'}`, types);
}
