import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import {
  type FakeAlert,
  type FakeGithubRest,
  type FakeReply,
  type FakeRestWorld,
  startFakeGithubRest,
} from '../../../../test/fakes/github-rest/server.js';
import { timeBudget } from '../../../../test/support/time-budget.js';
import { listAlerts } from '../github-rest.js';
import { alertResultDir } from './sweep-done.js';

/** The sweep's listing treats the API as untrusted: names, loops, huge pages, duplicates, alerts that move. */
const TOKEN = 'fake-list-token-0123456789';
let server: FakeGithubRest | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function alertsOf(count: number): Record<number, FakeAlert> {
  const alerts: Record<number, FakeAlert> = {};
  for (let number = 1; number <= count; number++)
    alerts[number] = { number, secret_type: 'github_personal_access_token', locations: [] };
  return alerts;
}

/**
 * A request's timeout covers reading its body too: a page of 200,000 alerts (26 MB of JSON written and parsed in this
 * worker) took over the default 30 s at load 8. These tests are not about time, so it scales with the load.
 */
const REQUEST_BUDGET_MS = timeBudget(120_000);

async function listWith(world: Omit<FakeRestWorld, 'token'>, scope: { repo: string } | { org: string }) {
  server = await startFakeGithubRest({ token: TOKEN, ...world });
  return listAlerts(
    scope,
    {},
    { apiUrl: server.url, token: TOKEN, redact: (text) => text, timeoutMs: REQUEST_BUDGET_MS },
  );
}

const listed = (number: number, fullName: string) => ({
  number,
  state: 'open',
  secret_type: 'x',
  created_at: '2026-01-01T00:00:00Z',
  repository: { full_name: fullName },
});

describe('listAlerts against a hostile API', () => {
  test('a full_name that climbs out of --out is refused, and alertResultDir refuses it too', async () => {
    const reply = { status: 200, body: [listed(1, '../..')] };
    await expect(listWith({ repos: {}, intercept: () => reply }, { org: 'acme' })).rejects.toThrow(
      /full_name: expected owner\/repo/,
    );
    expect(() => alertResultDir('/tmp/out', '../..', 1)).toThrow(/refusing to write outside/);
    expect(() => alertResultDir('/tmp/out', 'acme/..', 1)).toThrow(/refusing to write outside/);
    expect(alertResultDir('/tmp/out', 'acme/web.site', 1)).toBe('/tmp/out/acme/web.site/1');
  });

  test('a Link header that loops ends the listing with an error instead of running forever', async () => {
    const loop = (url: URL, port: number) => ({
      status: 200,
      body: [listed(1, 'acme/web')],
      headers: { link: `<http://127.0.0.1:${port}${url.pathname}${url.search}>; rel="next"` },
    });
    await expect(listWith({ repos: {}, intercept: loop }, { org: 'acme' })).rejects.toThrow(/next page repeats/);
  });

  test('a page of 200,000 alerts does not overflow the stack; duplicates are kept once', async () => {
    const body = Array.from({ length: 200_000 }, (_, index) => listed((index % 100_000) + 1, 'acme/web'));
    const alerts = await listWith({ repos: {}, intercept: () => ({ status: 200, body }) }, { org: 'acme' });
    expect(alerts).toHaveLength(100_000);
  });

  test('an alert closed while the listing pages does not push another one off a page (cursors)', async () => {
    const world: Omit<FakeRestWorld, 'token'> = { repos: { 'acme/web': { clone_url: '', alerts: alertsOf(250) } } };
    let pages = 0;
    world.intercept = (url) => {
      if (url.pathname.endsWith('/secret-scanning/alerts') && ++pages === 2) {
        // Between page 1 and page 2, the first alert is closed: offset paging would now skip alert #101.
        world.repos['acme/web']!.alerts[1]!.state = 'resolved';
      }
      return undefined;
    };
    const alerts = await listWith(world, { repo: 'acme/web' });
    expect(new Set(alerts.map((alert) => alert.number)).size).toBe(alerts.length);
    // #1 was listed before it closed; every other alert is listed once, none skipped.
    expect(alerts).toHaveLength(250);
    expect(server!.requests.every((request) => !/[?&]page=/.test(request.url))).toBe(true);
  });

  test('a rate limit (403, remaining 0, reset in 2 s) waits, says so, and completes; 429 honours retry-after', async () => {
    let limited = 0;
    const world: Omit<FakeRestWorld, 'token'> = { repos: { 'acme/web': { clone_url: '', alerts: alertsOf(150) } } };
    world.intercept = (url): FakeReply | undefined => {
      if (!url.pathname.endsWith('/secret-scanning/alerts') || limited >= 2) return undefined;
      limited++;
      if (limited === 1)
        return {
          status: 403,
          body: { message: 'API rate limit exceeded' },
          headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 2) },
        };
      return { status: 429, body: { message: 'slow down' }, headers: { 'retry-after': '1' } };
    };
    server = await startFakeGithubRest({ token: TOKEN, ...world });
    const said: string[] = [];
    const started = Date.now();
    const alerts = await listAlerts(
      { repo: 'acme/web' },
      {},
      {
        apiUrl: server.url,
        token: TOKEN,
        redact: (text) => text,
        timeoutMs: REQUEST_BUDGET_MS,
        onWait: (text) => said.push(text),
      },
    );
    expect(alerts).toHaveLength(150);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
    expect(said[0]).toMatch(/primary rate limit, resets at .*; waiting \d+ s/);
    expect(said[1]).toMatch(/secondary rate limit \(retry-after 1 s\); waiting 1 s/);
  });

  test('a body still arriving when the request times out is named as late, not as a body that is not JSON', async () => {
    // The headers and the first byte of the page arrive; the rest never does.
    const stalled = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('[');
    });
    await new Promise<void>((ready) => stalled.listen(0, '127.0.0.1', ready));
    try {
      const { port } = stalled.address() as AddressInfo;
      // The request's own timer, fired once the headers are in (as a real one that runs out while the body arrives):
      // a fixed timer could fire before the headers on a loaded machine, which is another error.
      const timer = new AbortController();
      const listing = listAlerts(
        { repo: 'acme/web' },
        {},
        {
          apiUrl: `http://127.0.0.1:${port}`,
          token: TOKEN,
          redact: (text) => text,
          timeoutMs: 300,
          fetch: async (url, init) => {
            const response = await fetch(url, { ...init, signal: timer.signal });
            timer.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
            return response;
          },
        },
      );
      await expect(listing).rejects.toThrow(/alerts of acme\/web: the response did not arrive whole within 1 s/);
    } finally {
      stalled.closeAllConnections();
      await new Promise((closed) => stalled.close(closed));
    }
  });
});
