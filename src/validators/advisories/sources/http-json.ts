import { formatDuration } from '../../../core/config/units.js';
import { errorMessage } from '../../../core/errors.js';
import { httpFetch } from '../../../core/http/http-fetch.js';

export type HttpOutcome =
  | { kind: 'ok'; json: unknown }
  | { kind: 'unavailable' | 'rate_limited' | 'error'; message: string };

export interface HttpRequest {
  /** Names the source in messages (`osv`, `github`). */
  source: string;
  url: string;
  method?: 'GET' | 'POST';
  body?: unknown;
  /** Never echoed in messages (they may hold a token). */
  headers?: Record<string, string>;
  signal: AbortSignal;
  timeoutMs: number;
}

/** Origin and path only: a query string could carry something private. */
function where(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return url;
  }
}

function causeCode(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? errorMessage(error);
}

/**
 * One JSON request with a timeout, classified the way the gate needs: unreachable, timed out and 5xx are
 * `unavailable` (the check did not happen), 429 and GitHub's rate-limit 403 are `rate_limited`, anything else we
 * cannot use is `error`. Never `ok` unless the body parsed as JSON.
 */
export async function fetchJson(request: HttpRequest): Promise<HttpOutcome> {
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const signal = AbortSignal.any([request.signal, timeout]);
  const target = where(request.url);
  let response: Response;
  try {
    response = await httpFetch(request.url, {
      method: request.method ?? 'GET',
      headers: {
        accept: 'application/json',
        ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...request.headers,
      },
      ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
      signal,
    });
  } catch (error) {
    if (timeout.aborted) {
      return {
        kind: 'unavailable',
        message: `${request.source}: no answer from ${target} within ${formatDuration(request.timeoutMs)}`,
      };
    }
    if (request.signal.aborted)
      return { kind: 'unavailable', message: `${request.source}: stopped before ${target} answered` };
    return { kind: 'unavailable', message: `${request.source}: cannot reach ${target} (${causeCode(error)})` };
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    const why = timeout.aborted ? `no complete answer within ${formatDuration(request.timeoutMs)}` : causeCode(error);
    return { kind: 'unavailable', message: `${request.source}: ${target} broke off its answer (${why})` };
  }
  const retryAfter = response.headers.get('retry-after');
  const retry = retryAfter ? `; retry after ${retryAfter} s` : '';
  if (response.status === 429 || (response.status === 403 && response.headers.get('x-ratelimit-remaining') === '0')) {
    return {
      kind: 'rate_limited',
      message: `${request.source}: rate limited by ${target} (HTTP ${response.status})${retry}`,
    };
  }
  if (response.status >= 500) {
    return { kind: 'unavailable', message: `${request.source}: ${target} failed (HTTP ${response.status})${retry}` };
  }
  if (response.status < 200 || response.status >= 300) {
    const snippet = text.trim().replace(/\s+/g, ' ').slice(0, 160);
    return {
      kind: 'error',
      message: `${request.source}: ${target} answered HTTP ${response.status}${snippet ? `: ${snippet}` : ''}`,
    };
  }
  try {
    return { kind: 'ok', json: JSON.parse(text) };
  } catch {
    return { kind: 'error', message: `${request.source}: ${target} answered malformed JSON (${text.length} bytes)` };
  }
}
