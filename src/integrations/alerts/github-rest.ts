import { z } from 'zod';
import { errorMessage, TollgateError } from '../../core/errors.js';
import { MAX_WAIT_MS, rateLimitWait, waitingLine } from '../../core/http/github-rate-limit.js';
import { httpFetch } from '../../core/http/http-fetch.js';
import type { Redact } from './mask.js';
import {
  type AlertListFilters,
  alertListQuery,
  type ListedAlert,
  nextPageUrl,
  parseAlertListPage,
} from './sweep/open-alerts-parse.js';
import type { AlertLocation } from './types.js';

/**
 * The GitHub REST secret-scanning endpoints validate-alert reads (docs.github.com/rest/secret-scanning):
 * `GET /repos/{owner}/{repo}/secret-scanning/alerts/{n}`, its `/locations` (paged, 100 a page, at most 50 pages)
 * and `GET /repos/{owner}/{repo}` for the clone URL (so GHES works through `GITHUB_API_URL`). Every response is
 * validated with zod here; every error message is masked and never carries the token.
 */
const alertSchema = z.object({
  number: z.number().int(),
  state: z.string().optional(),
  secret_type: z.string(),
  secret_type_display_name: z.string().nullish(),
  secret: z.string().nullish(),
  validity: z.string().nullish(),
  resolution: z.string().nullish(),
  created_at: z.string().nullish(),
  html_url: z.string().nullish(),
});
export type GithubAlert = z.output<typeof alertSchema>;

const locationSchema = z.object({
  type: z.string(),
  details: z
    .object({
      path: z.string().optional(),
      start_line: z.number().optional(),
      commit_sha: z.string().optional(),
      blob_sha: z.string().optional(),
    })
    .catchall(z.unknown())
    .optional(),
});
const locationsSchema = z.array(locationSchema);
const repoSchema = z.object({ clone_url: z.string().min(1), default_branch: z.string().optional() });

export interface GithubRestOptions {
  /** `GITHUB_API_URL`, default https://api.github.com. */
  apiUrl: string;
  token: string | undefined;
  redact: Redact;
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Where "waiting for the rate limit" is said; default stderr. */
  onWait?: (text: string) => void;
}

export interface FetchedAlert {
  alert: GithubAlert;
  locations: AlertLocation[];
  cloneUrl: string;
}

const MAX_LOCATION_PAGES = 50;

export async function fetchAlert(
  owner: string,
  repo: string,
  alertId: string,
  options: GithubRestOptions,
): Promise<FetchedAlert> {
  const base = `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
  const alert = alertSchema.parse(
    await getJson(
      `${base}/secret-scanning/alerts/${encodeURIComponent(alertId)}`,
      options,
      `alert ${alertId} of ${owner}/${repo}`,
    ),
  );
  const locations: AlertLocation[] = [];
  for (let page = 1; page <= MAX_LOCATION_PAGES; page++) {
    const raw = await getJson(
      `${base}/secret-scanning/alerts/${encodeURIComponent(alertId)}/locations?per_page=100&page=${page}`,
      options,
      `locations of alert ${alertId}`,
    );
    const batch = parseWith(locationsSchema, raw, `locations of alert ${alertId}`);
    for (const item of batch) locations.push(toLocation(item));
    if (batch.length < 100) break;
  }
  const repository = parseWith(
    repoSchema,
    await getJson(base, options, `repository ${owner}/${repo}`),
    `repository ${owner}/${repo}`,
  );
  return { alert, locations, cloneUrl: repository.clone_url };
}

function toLocation(item: z.output<typeof locationSchema>): AlertLocation {
  const details = item.details ?? {};
  const location: AlertLocation = { type: item.type };
  if (details.path) location.path = details.path;
  if (details.start_line !== undefined) location.startLine = details.start_line;
  if (details.commit_sha) location.commitSha = details.commit_sha;
  if (details.blob_sha) location.blobSha = details.blob_sha;
  for (const [key, value] of Object.entries(details)) {
    if (key.endsWith('_url') && typeof value === 'string') location.url = value;
  }
  return location;
}

function parseWith<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new TollgateError(
    'io',
    `GitHub API ${what}: unexpected response (${issue?.path.join('.') || 'root'}: ${issue?.message})`,
  );
}

async function getJson(path: string, options: GithubRestOptions, what: string): Promise<unknown> {
  return (await getPage(`${options.apiUrl.replace(/\/+$/, '')}${path}`, options, what)).body;
}

/** A listing longer than this many pages is a misbehaving API, not an organization (100 alerts a page). */
export const MAX_ALERT_PAGES = 5_000;

/**
 * Every open alert of a repository or an organization (`state`, `secret_type`, `validity` filters as the API's own
 * query parameters), following the Link header page by page with cursors (`after`), so an alert closed or opened
 * while the listing runs does not shift another one off a page. The API is not trusted: a next page on another
 * origin is refused (the token goes nowhere else), a next link seen before or more than `MAX_ALERT_PAGES` pages end
 * the listing with an error, and an alert listed twice is kept once (its latest `updated_at`).
 */
export async function listAlerts(
  scope: { repo: string } | { org: string },
  filters: AlertListFilters,
  options: GithubRestOptions,
): Promise<ListedAlert[]> {
  const api = options.apiUrl.replace(/\/+$/, '');
  const path =
    'repo' in scope
      ? `/repos/${scope.repo.split('/').map(encodeURIComponent).join('/')}/secret-scanning/alerts`
      : `/orgs/${encodeURIComponent(scope.org)}/secret-scanning/alerts`;
  const what = 'repo' in scope ? `alerts of ${scope.repo}` : `alerts of organization ${scope.org}`;
  const alerts = new Map<string, ListedAlert>();
  const seen = new Set<string>();
  let url: string | undefined = `${api}${path}?${alertListQuery(filters)}&after=`;
  while (url) {
    if (seen.has(url))
      throw new TollgateError('io', options.redact(`GitHub API ${what}: the next page repeats ${url}`));
    if (seen.size >= MAX_ALERT_PAGES)
      throw new TollgateError('io', `GitHub API ${what}: more than ${MAX_ALERT_PAGES} pages; stopped listing`);
    seen.add(url);
    const page = await getPage(url, options, what);
    // One at a time: spreading a huge page into push() overflows the call stack.
    for (const alert of parseAlertListPage(page.body, what, 'repo' in scope ? scope.repo : undefined)) {
      const key = `${alert.repo.toLowerCase()}#${alert.number}`;
      const known = alerts.get(key);
      if (!known || known.updatedAt < alert.updatedAt) alerts.set(key, alert);
    }
    url = nextPageUrl(page.link);
    if (url && new URL(url, api).origin !== new URL(api).origin)
      throw new TollgateError(
        'io',
        `GitHub API ${what}: the next page points at another host (${new URL(url, api).origin})`,
      );
  }
  return [...alerts.values()];
}

async function getPage(
  url: string,
  options: GithubRestOptions,
  what: string,
): Promise<{ body: unknown; link: string | null }> {
  const headers: Record<string, string> = {
    accept: 'application/vnd.github+json',
    'x-github-api-version': '2022-11-28',
    'user-agent': 'tollgate',
  };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await fetchWithRateLimits(url, headers, options, what);
  if (response.status === 401) {
    throw new TollgateError(
      'usage',
      'GITHUB_TOKEN: GitHub rejected the token (401); set a token that can read secret-scanning alerts',
    );
  }
  if (response.status === 404 || response.status === 403) {
    throw new TollgateError(
      'not_found',
      options.redact(
        `GitHub API ${what}: ${response.status} (no such alert, or the token cannot see it: it needs "Secret scanning alerts: read"${options.token ? '' : '; GITHUB_TOKEN is not set'})`,
      ),
    );
  }
  if (!response.ok) {
    const body = (await response.text().catch(() => '')).slice(0, 200);
    throw new TollgateError('io', options.redact(`GitHub API ${what}: HTTP ${response.status} ${body}`));
  }
  try {
    return { body: await response.json(), link: response.headers.get('link') };
  } catch (error) {
    // The request's timeout also covers reading the body: a large page cut off is late, not malformed.
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
      throw new TollgateError(
        'io',
        `GitHub API ${what}: the response did not arrive whole within ${Math.ceil(requestTimeoutMs(options) / 1000)} s; rerun later`,
      );
    }
    throw new TollgateError('io', `GitHub API ${what}: the response is not JSON`);
  }
}

/** How long one request may take, its body's reading included. */
function requestTimeoutMs(options: GithubRestOptions): number {
  return options.timeoutMs ?? 30_000;
}

/** Retries on a rate limit, as many times as it takes within the bounded waits (see `github-rate-limit.ts`). */
const MAX_RATE_LIMIT_RETRIES = 5;

async function fetchWithRateLimits(
  url: string,
  headers: Record<string, string>,
  options: GithubRestOptions,
  what: string,
): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      response = await (options.fetch ?? httpFetch)(url, {
        headers,
        signal: AbortSignal.timeout(requestTimeoutMs(options)),
      });
    } catch (error) {
      throw new TollgateError(
        'io',
        options.redact(`GitHub API ${what}: request to ${url} failed (${errorMessage(error)})`),
      );
    }
    if (response.status !== 403 && response.status !== 429) return response;
    const body = await response
      .clone()
      .text()
      .catch(() => '');
    const wait = rateLimitWait(response.status, (name) => response.headers.get(name), body, Date.now(), attempt);
    if (!wait) return response;
    if (wait.waitMs > MAX_WAIT_MS || attempt >= MAX_RATE_LIMIT_RETRIES)
      throw new TollgateError(
        'io',
        `GitHub API ${what}: ${wait.why}; not waiting ${Math.ceil(wait.waitMs / 1000)} s more: rerun later`,
      );
    (options.onWait ?? ((text: string) => process.stderr.write(text)))(waitingLine(`GitHub API ${what}`, wait));
    await new Promise((resolve) => setTimeout(resolve, wait.waitMs));
  }
}
