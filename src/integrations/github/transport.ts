/**
 * How a GraphQL request reaches GitHub: through `gh api graphql` or over HTTPS with a token. Both hand back the raw
 * HTTP answer so that one client (`graphql-client.ts`) reads statuses, rate-limit headers and `errors[]` the same way.
 */
export interface GraphqlRequest {
  query: string;
  variables: Record<string, unknown>;
}

export interface GraphqlHttpResponse {
  status: number;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  body: string;
}

export interface SendOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface GraphqlTransport {
  /** For messages: "gh" or the GraphQL URL. */
  readonly description: string;
  /** Throws GithubError `timeout`, `network`, `gh_unavailable` or `bad_response`; HTTP errors are answers. */
  send(request: GraphqlRequest, options: SendOptions): Promise<GraphqlHttpResponse>;
}

/** "30 s" / "1.5 s" for messages. */
function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

export function timeoutMessage(timeoutMs: number, via: string): string {
  return `GitHub did not answer within ${formatSeconds(timeoutMs)} (via ${via}); rerun, or raise reviewComments.requestTimeout`;
}
