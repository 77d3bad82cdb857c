import { afterEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import { listAlerts } from '../../src/integrations/alerts/github-rest.js';
import { createGraphqlClient } from '../../src/integrations/github/graphql-client.js';
import { createHttpsTransport } from '../../src/integrations/github/https-transport.js';
import { upsertStickyComment } from '../../src/integrations/github-action/comment-api.js';
import { startFakeGithub } from '../fakes/github/server.js';
import { createWorld } from '../fakes/github/world.js';
import { startFakeGithubRest } from '../fakes/github-rest/server.js';
import { type FakeProxy, startFakeProxy } from '../fakes/proxy/connect-proxy.js';
import { timeBudget } from '../support/time-budget.js';

/** GitHub's REST API (the sweep, the Action's comment) and GraphQL API honour HTTP_PROXY through the shared fetch. */
const TOKEN = 'fake-proxy-callers-token-0123456789';
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  for (const close of closers.splice(0)) await close();
});

async function proxied(): Promise<FakeProxy> {
  const proxy = await startFakeProxy();
  closers.push(() => proxy.close());
  for (const name of ['NO_PROXY', 'no_proxy', 'http_proxy']) vi.stubEnv(name, '');
  vi.stubEnv('HTTP_PROXY', proxy.url);
  return proxy;
}

describe('GitHub clients behind HTTP_PROXY', () => {
  test('the REST sweep listing and the sticky comment go through the proxy', async () => {
    const server = await startFakeGithubRest({
      token: TOKEN,
      repos: {
        'acme/web': {
          clone_url: 'https://example.invalid/acme/web.git',
          alerts: { 1: { number: 1, secret_type: 'x', locations: [] } },
        },
      },
      intercept: (url) => {
        if (!url.pathname.endsWith('/issues/7/comments')) return undefined;
        return url.search ? { status: 200, body: [] } : { status: 201, body: { id: 99 } };
      },
    });
    closers.push(() => server.close());
    const proxy = await proxied();
    const alerts = await listAlerts({ repo: 'acme/web' }, {}, { apiUrl: server.url, token: TOKEN, redact: (t) => t });
    expect(alerts).toHaveLength(1);
    const comment = await upsertStickyComment(
      { apiUrl: server.url, token: TOKEN, owner: 'acme', repo: 'web', number: 7 },
      'tollgate passed',
    );
    expect(comment).toEqual({ action: 'created', id: 99 });
    expect(proxy.forwarded.length).toBe(server.requests.length);
    expect(proxy.forwarded.every((url) => url.startsWith(server.url))).toBe(true);
    expect(proxy.forwarded.some((url) => url.includes('/secret-scanning/alerts'))).toBe(true);
    expect(proxy.forwarded.some((url) => url.endsWith('/issues/7/comments'))).toBe(true);
  });

  test('the GraphQL client goes through the proxy', async () => {
    const server = await startFakeGithub(createWorld());
    closers.push(() => server.close());
    const proxy = await proxied();
    const client = createGraphqlClient({
      transport: createHttpsTransport({ url: server.url, token: TOKEN }),
      // The fake builds GitHub's whole schema on its first request: seconds on a loaded machine.
      timeoutMs: timeBudget(10_000),
      rateLimitFloor: 0,
    });
    const data = await client.request(
      'query Me { viewer { login } }',
      {},
      z.object({ viewer: z.object({ login: z.string() }) }),
    );
    expect(data.viewer.login).toEqual(expect.any(String));
    expect(proxy.forwarded).toEqual([server.url]);
  });
});
