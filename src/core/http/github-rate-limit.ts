/**
 * GitHub's rate limits, one policy for every REST and GraphQL call (docs.github.com, "Rate limits for the REST API"):
 * - primary: 403 or 429 with `x-ratelimit-remaining: 0` lasts until `x-ratelimit-reset` (epoch seconds);
 * - secondary: 403 or 429 with `retry-after` (seconds), or GitHub's "secondary rate limit" text without it: at least
 *   a minute, doubling with each retry.
 * The REST client (src/integrations/alerts/github-rest.ts) and the GraphQL client (src/integrations/github/graphql-client.ts) both
 * decide with `rateLimitWait`, sleep through waits up to `MAX_WAIT_MS` and say each wait on stderr (`waitingLine`).
 * A wait longer than `MAX_WAIT_MS` is not sat through: it is reported, so a sweep of thousands of alerts does not
 * hang for an hour without a word.
 */
export const MAX_WAIT_MS = 15 * 60_000;
const SECONDARY_DEFAULT_MS = 60_000;
/** Clocks differ: wait a little past the reset GitHub names. */
const RESET_SLACK_MS = 1_000;

export interface RateLimitWait {
  waitMs: number;
  /** For stderr: `primary rate limit, resets at 10:42:07Z` or `secondary rate limit (retry-after 30 s)`. */
  why: string;
}

export function rateLimitWait(
  status: number,
  header: (name: string) => string | null,
  body: string,
  now = Date.now(),
  attempt = 0,
): RateLimitWait | null {
  if (status !== 403 && status !== 429) return null;
  const retryAfter = Number(header('retry-after'));
  if (header('retry-after') !== null && Number.isFinite(retryAfter) && retryAfter >= 0)
    return { waitMs: retryAfter * 1000, why: `secondary rate limit (retry-after ${retryAfter} s)` };
  if (header('x-ratelimit-remaining') === '0') {
    const reset = Number(header('x-ratelimit-reset'));
    if (!Number.isFinite(reset) || reset <= 0) return { waitMs: SECONDARY_DEFAULT_MS, why: 'primary rate limit' };
    const at = new Date(reset * 1000);
    return {
      waitMs: Math.max(0, at.getTime() - now) + RESET_SLACK_MS,
      why: `primary rate limit, resets at ${at.toISOString()}`,
    };
  }
  if (status === 429 || /secondary rate limit|abuse detection/i.test(body))
    return { waitMs: SECONDARY_DEFAULT_MS * 2 ** attempt, why: 'secondary rate limit' };
  return null;
}

/** What is said on stderr before a wait: `tollgate: GitHub API alert 3 of acme/web: primary rate limit, …; waiting 2 s`. */
export function waitingLine(what: string, wait: RateLimitWait): string {
  return `tollgate: ${what}: ${wait.why}; waiting ${Math.ceil(wait.waitMs / 1000)} s\n`;
}
