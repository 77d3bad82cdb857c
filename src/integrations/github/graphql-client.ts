import { z } from 'zod';
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
  /** Retries after a secondary rate limit or a 502/503/504. Default 3. */
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

/** GitHub's advice for a secondary limit without `retry-after`: wait at least a minute. */
const SECONDARY_DEFAULT_WAIT_MS = 60_000;
const SERVER_ERROR_WAIT_MS = 1000;
/** Never sleep longer than this on one retry-after: a longer wait is better reported than sat through. */
const MAX_BACKOFF_MS = 5 * 60_000;

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
 * A secondary rate limit (403/429 with `retry-after`, or GitHub's "secondary rate limit" text) and a passing server
 * error are retried after a wait; the primary limit is not (it lasts until the hourly reset) and is reported.
 * https://docs.github.com/rest/using-the-rest-api/best-practices-for-using-the-rest-api#handle-rate-limit-errors-appropriately
 */
function retryDelay(
  response: GraphqlHttpResponse,
  attempt: number,
  maxRetries: number,
  nowMs: number,
): { waitMs: number; reason: string } | null {
  const { status, headers } = response;
  if (isSecondaryLimit(response)) {
    if (attempt >= maxRetries) {
      throw new GithubError(
        'secondary_rate_limited',
        `GitHub secondary rate limit: still limited after ${maxRetries} retries; wait a few minutes before rerunning`,
      );
    }
    const retryAfter = Number(headers['retry-after']);
    const reset = Number(headers['x-ratelimit-reset']);
    let waitMs = SECONDARY_DEFAULT_WAIT_MS * 2 ** attempt;
    if (Number.isFinite(retryAfter) && headers['retry-after'] !== undefined) waitMs = retryAfter * 1000;
    else if (headers['x-ratelimit-remaining'] === '0' && Number.isFinite(reset)) waitMs = reset * 1000 - nowMs;
    return { waitMs: Math.min(Math.max(waitMs, 1000), MAX_BACKOFF_MS), reason: 'secondary rate limit' };
  }
  if (status === 502 || status === 503 || status === 504) {
    if (attempt >= maxRetries) {
      throw new GithubError('network', `GitHub answered HTTP ${status} ${maxRetries + 1} times; rerun later`);
    }
    return { waitMs: SERVER_ERROR_WAIT_MS * 2 ** attempt, reason: `HTTP ${status}` };
  }
  return null;
}

function isSecondaryLimit(response: GraphqlHttpResponse): boolean {
  if (response.status !== 403 && response.status !== 429) return false;
  if (response.headers['retry-after'] !== undefined) return true;
  if (/secondary rate limit|abuse detection/i.test(response.body)) return true;
  // A 429 is always a limit; a 403 with no points left is the primary limit, handled by readData.
  return response.status === 429 && response.headers['x-ratelimit-remaining'] !== '0';
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
