import { httpFetch } from '../../core/http/http-fetch.js';
import { GithubError } from './github-error.js';
import {
  type GraphqlHttpResponse,
  type GraphqlRequest,
  type GraphqlTransport,
  type SendOptions,
  timeoutMessage,
} from './transport.js';

export const DEFAULT_GRAPHQL_URL = 'https://api.github.com/graphql';

export interface HttpsTransportOptions {
  /** `GITHUB_GRAPHQL_URL` (GitHub Enterprise: `https://HOST/api/graphql`). */
  url: string;
  /** Never appears in a message, a log or an error. */
  token: string;
  /** Injectable for tests; default the shared `httpFetch` (proxy-aware). */
  fetch?: typeof fetch;
}

/**
 * POSTs the request with the token. The body is read whole with `response.text()`, so a large page is bounded by
 * memory, not by a capture cap (the reference failed on a 1.5 MB page behind a 1 MiB `maxBuffer`).
 */
export function createHttpsTransport(options: HttpsTransportOptions): GraphqlTransport {
  const doFetch = options.fetch ?? httpFetch;
  return {
    description: options.url,
    async send(request: GraphqlRequest, sendOptions: SendOptions): Promise<GraphqlHttpResponse> {
      const timeout = AbortSignal.timeout(sendOptions.timeoutMs);
      const signal = sendOptions.signal ? AbortSignal.any([timeout, sendOptions.signal]) : timeout;
      try {
        const response = await doFetch(options.url, {
          method: 'POST',
          headers: {
            authorization: `bearer ${options.token}`,
            'content-type': 'application/json',
            accept: 'application/vnd.github+json',
            'user-agent': 'tollgate',
          },
          body: JSON.stringify(request),
          signal,
        });
        const body = await response.text();
        const headers: Record<string, string> = {};
        response.headers.forEach((value, name) => {
          headers[name.toLowerCase()] = value;
        });
        return { status: response.status, headers, body };
      } catch (error) {
        if (timeout.aborted) throw new GithubError('timeout', timeoutMessage(sendOptions.timeoutMs, options.url));
        if (sendOptions.signal?.aborted) throw new GithubError('network', `request to ${options.url} was cancelled`);
        throw new GithubError('network', `could not reach ${options.url}: ${networkCause(error)}`);
      }
    },
  };
}

/** `ECONNREFUSED`, `ENOTFOUND api.github.com`, … from undici's `cause`; never the request (it holds the token). */
function networkCause(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (cause && typeof cause.message === 'string') return cause.message.split('\n')[0]!;
  return error instanceof Error ? error.message.split('\n')[0]! : 'unknown error';
}
