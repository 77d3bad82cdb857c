import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The GitHub REST secret-scanning endpoints on 127.0.0.1, over an in-memory world: `GET /repos/{o}/{r}` (clone_url),
 * `GET /repos/{o}/{r}/secret-scanning/alerts/{n}` and its `/locations` (paged like GitHub, `per_page`/`page`), and the
 * listings `GET /repos/{o}/{r}/secret-scanning/alerts` and `GET /orgs/{org}/secret-scanning/alerts` (`state`,
 * `secret_type`, `validity` filters; pages linked by a `Link: <…>; rel="next"` header like GitHub's). A request
 * without `Authorization: Bearer <token>` gets 401. Requests are recorded without their Authorization header.
 */
export interface FakeAlert {
  number: number;
  state?: string;
  secret_type: string;
  secret_type_display_name?: string;
  secret?: string;
  validity?: string;
  resolution?: string | null;
  created_at?: string;
  updated_at?: string;
  html_url?: string;
  locations: Array<{ type: string; details: Record<string, unknown> }>;
}

export interface FakeRestWorld {
  token: string;
  repos: Record<string, { clone_url: string; alerts: Record<number, FakeAlert> }>;
  /**
   * A hostile or changing API: called for every authorized request before the world answers. Return a reply to send
   * it instead (a looping Link header, a rate limit, a forged `full_name`), or undefined to answer from the world
   * (which the hook may have changed: an alert closed between two pages).
   */
  intercept?: (url: URL, port: number) => FakeReply | undefined;
  /** The largest page served, whatever `per_page` asks (GitHub's is 100): a few alerts then still span pages. */
  maxPerPage?: number;
}

export interface FakeReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface FakeRestRequest {
  method: string;
  url: string;
  authorized: boolean;
}

export interface FakeGithubRest {
  /** Use as GITHUB_API_URL. */
  url: string;
  requests: FakeRestRequest[];
  close(): Promise<void>;
}

export async function startFakeGithubRest(world: FakeRestWorld): Promise<FakeGithubRest> {
  const requests: FakeRestRequest[] = [];
  let port = 0;
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const authorized = request.headers.authorization === `Bearer ${world.token}`;
    requests.push({ method: request.method ?? 'GET', url: `${url.pathname}${url.search}`, authorized });
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (!authorized) return send(401, { message: 'Bad credentials' });
    const reply = world.intercept?.(url, port);
    if (reply) {
      for (const [name, value] of Object.entries(reply.headers ?? {})) response.setHeader(name, value);
      return send(reply.status, reply.body);
    }
    const listing = /^\/(?:repos\/([^/]+\/[^/]+)|orgs\/([^/]+))\/secret-scanning\/alerts$/.exec(url.pathname);
    if (listing) {
      const names = Object.keys(world.repos).filter((name) =>
        listing[1] ? name === listing[1] : name.startsWith(`${listing[2]}/`),
      );
      if (names.length === 0) return send(404, { message: 'Not Found' });
      const items = names.flatMap((name) =>
        Object.values(world.repos[name]!.alerts)
          .filter((alert) => matches(alert, url.searchParams))
          .map(({ locations: _locations, ...alert }) => ({
            created_at: '2026-01-01T00:00:00Z',
            ...alert,
            state: alert.state ?? 'open',
            ...(listing[2] ? { repository: { full_name: name } } : {}),
          })),
      );
      const perPage = Math.min(Number(url.searchParams.get('per_page') ?? 30), world.maxPerPage ?? 100);
      if (url.searchParams.has('after')) return sendCursorPage(items, perPage);
      const page = Number(url.searchParams.get('page') ?? 1);
      if (page * perPage < items.length) {
        const next = new URL(url.toString());
        next.searchParams.set('page', String(page + 1));
        response.setHeader('link', `<http://127.0.0.1:${port}${next.pathname}${next.search}>; rel="next"`);
      }
      return send(200, items.slice((page - 1) * perPage, page * perPage));
    }
    function sendCursorPage(items: Array<{ number: number; repository?: { full_name: string } }>, perPage: number) {
      // Cursor paging as GitHub's `after`: the page starts after the alert the cursor names, wherever it now is.
      const keyOf = (item: (typeof items)[number]) => `${item.repository?.full_name ?? ''}#${item.number}`;
      items.sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : 1));
      const after = url.searchParams.get('after') ?? '';
      const start = after === '' ? 0 : items.findIndex((item) => keyOf(item) > after);
      const served = start === -1 ? [] : items.slice(start, start + perPage);
      const last = served.at(-1);
      if (last && start + perPage < items.length) {
        const next = new URL(url.toString());
        next.searchParams.set('after', keyOf(last));
        response.setHeader('link', `<http://127.0.0.1:${port}${next.pathname}${next.search}>; rel="next"`);
      }
      return send(200, served);
    }
    const match = /^\/repos\/([^/]+)\/([^/]+)(?:\/secret-scanning\/alerts\/(\d+)(\/locations)?)?$/.exec(url.pathname);
    const repo = match ? world.repos[`${match[1]}/${match[2]}`] : undefined;
    if (!match || !repo) return send(404, { message: 'Not Found' });
    if (!match[3]) return send(200, { full_name: `${match[1]}/${match[2]}`, clone_url: repo.clone_url });
    const alert = repo.alerts[Number(match[3])];
    if (!alert) return send(404, { message: 'Not Found' });
    const { locations, ...rest } = alert;
    if (!match[4]) return send(200, rest);
    const perPage = Number(url.searchParams.get('per_page') ?? 30);
    const page = Number(url.searchParams.get('page') ?? 1);
    return send(200, locations.slice((page - 1) * perPage, page * perPage));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The listing filters GitHub applies: `state` (default open), `secret_type` (comma-separated), `validity`. */
function matches(alert: FakeAlert, query: URLSearchParams): boolean {
  if ((alert.state ?? 'open') !== (query.get('state') ?? 'open')) return false;
  const types = query.get('secret_type');
  if (types && !types.split(',').includes(alert.secret_type)) return false;
  const validity = query.get('validity');
  return !validity || (alert.validity ?? 'unknown') === validity;
}
