import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { startFakeGithub } from '../../../test/fakes/github/server.js';
import { addPullRequest, createWorld } from '../../../test/fakes/github/world.js';
import { timeBudget } from '../../../test/support/time-budget.js';
import { createGraphqlClient } from './graphql-client.js';
import { createHttpsTransport } from './https-transport.js';
import type { GraphqlHttpResponse, GraphqlTransport } from './transport.js';

const VIEWER = 'query TollgateViewer { rateLimit { cost remaining resetAt } viewer { login } }';
const viewerSchema = z.object({ viewer: z.object({ login: z.string() }) });

function scripted(responses: GraphqlHttpResponse[]): GraphqlTransport & { sent: number } {
  const transport = {
    description: 'scripted',
    sent: 0,
    async send() {
      const response = responses[Math.min(transport.sent, responses.length - 1)]!;
      transport.sent++;
      return response;
    },
  };
  return transport;
}

const ok = (remaining = 4000): GraphqlHttpResponse => ({
  status: 200,
  headers: {},
  body: JSON.stringify({
    data: { rateLimit: { cost: 1, remaining, resetAt: '2030-01-01T00:00:00Z' }, viewer: { login: 'me' } },
  }),
});

describe('the GraphQL client', () => {
  test('backs off on a secondary rate limit by retry-after, with the injected sleep, then succeeds', async () => {
    const sleeps: number[] = [];
    const limited = {
      status: 403,
      headers: { 'retry-after': '7' },
      body: '{"message":"You have exceeded a secondary rate limit."}',
    };
    const transport = scripted([limited, limited, ok()]);
    const client = createGraphqlClient({
      transport,
      timeoutMs: 1000,
      rateLimitFloor: 0,
      sleep: async (ms) => void sleeps.push(ms),
    });
    expect(await client.request(VIEWER, {}, viewerSchema)).toEqual({ viewer: { login: 'me' } });
    expect(sleeps).toEqual([7000, 7000]);
  });

  test('without retry-after it waits a minute, doubling, and gives up after the retries with a clear message', async () => {
    const sleeps: number[] = [];
    const limited = { status: 429, headers: {}, body: '{}' };
    const client = createGraphqlClient({
      transport: scripted([limited]),
      timeoutMs: 1000,
      rateLimitFloor: 0,
      maxRetries: 2,
      sleep: async (ms) => void sleeps.push(ms),
    });
    await expect(client.request(VIEWER, {}, viewerSchema)).rejects.toThrow(
      'GitHub secondary rate limit: still limited after 2 retries; wait a few minutes before rerunning',
    );
    expect(sleeps).toEqual([60_000, 120_000]);
  });

  test('the primary limit (403, remaining 0, reset in 2 s) waits over real HTTP, says so, and completes', async () => {
    let calls = 0;
    const server = createServer((_request, response) => {
      calls++;
      if (calls === 1) {
        const reset = String(Math.ceil(Date.now() / 1000) + 2);
        response.writeHead(403, {
          'content-type': 'application/json',
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': reset,
        });
        response.end('{"message":"API rate limit exceeded"}');
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(ok().body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const said: string[] = [];
      const client = createGraphqlClient({
        transport: createHttpsTransport({
          url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
          token: 't',
        }),
        timeoutMs: timeBudget(5000),
        rateLimitFloor: 0,
        onBackoff: (_waitMs, reason) => said.push(reason),
      });
      const started = Date.now();
      await expect(client.request(VIEWER, {}, viewerSchema)).resolves.toMatchObject({ viewer: { login: 'me' } });
      expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
      expect(calls).toBe(2);
      expect(said).toEqual([expect.stringMatching(/^primary rate limit, resets at \d{4}-.*Z$/)]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('a GraphQL RATE_LIMITED answer waits for the reset when it is near, and is reported when it is not', async () => {
    const limited = (resetInS: number): GraphqlHttpResponse => ({
      status: 200,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(1_000_000 + resetInS) },
      body: JSON.stringify({ errors: [{ type: 'RATE_LIMITED', message: 'API rate limit exceeded' }] }),
    });
    const sleeps: number[] = [];
    const options = {
      timeoutMs: 1000,
      rateLimitFloor: 0,
      now: () => 1_000_000_000,
      sleep: async (ms: number) => void sleeps.push(ms),
    };
    const near = createGraphqlClient({ ...options, transport: scripted([limited(30), ok()]) });
    await expect(near.request(VIEWER, {}, viewerSchema)).resolves.toMatchObject({ viewer: { login: 'me' } });
    expect(sleeps).toEqual([31_000]);
    const far = createGraphqlClient({ ...options, transport: scripted([limited(3600), ok()]) });
    await expect(far.request(VIEWER, {}, viewerSchema)).rejects.toMatchObject({ kind: 'rate_limited' });
    expect(sleeps).toEqual([31_000]);
  });

  test('stops before the rate-limit floor instead of running dry', async () => {
    const transport = scripted([ok(40)]);
    const client = createGraphqlClient({ transport, timeoutMs: 1000, rateLimitFloor: 100 });
    await client.request(VIEWER, {}, viewerSchema);
    await expect(client.request(VIEWER, {}, viewerSchema)).rejects.toThrow(
      'GitHub GraphQL rate limit: 40 points left, below the floor of 100 (reviewComments.rateLimitFloor); did not send TollgateViewer; rerun after 2030-01-01T00:00:00Z',
    );
    expect(transport.sent).toBe(1);
  });

  test.each([
    ['RATE_LIMITED', { errors: [{ type: 'RATE_LIMITED', message: 'API rate limit exceeded' }] }, 200, 'rate_limited'],
    ['NOT_FOUND', { errors: [{ type: 'NOT_FOUND', message: 'Could not resolve' }] }, 200, 'not_found'],
    [
      'FORBIDDEN',
      { errors: [{ type: 'FORBIDDEN', message: 'Resource not accessible by integration' }] },
      200,
      'permission_denied',
    ],
    ['HTTP 401', { message: 'Bad credentials' }, 401, 'auth_required'],
  ])('maps %s to a typed failure', async (_name, body, status, kind) => {
    const client = createGraphqlClient({
      transport: scripted([{ status, headers: {}, body: JSON.stringify(body) }]),
      timeoutMs: 1000,
      rateLimitFloor: 0,
    });
    await expect(client.request(VIEWER, {}, viewerSchema)).rejects.toMatchObject({ kind });
  });

  test('times out per request with a message that says what to do', async () => {
    const server = createServer(() => {
      // Never answers.
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
    try {
      const client = createGraphqlClient({
        transport: createHttpsTransport({ url, token: 't' }),
        timeoutMs: 200,
        rateLimitFloor: 0,
      });
      await expect(client.request(VIEWER, {}, viewerSchema)).rejects.toThrow(
        `GitHub did not answer within 0.2 s (via ${url}); rerun, or raise reviewComments.requestTimeout`,
      );
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  test('never puts the token in an error', async () => {
    const client = createGraphqlClient({
      transport: createHttpsTransport({ url: 'http://127.0.0.1:1/graphql', token: 'secret-token-value' }),
      // A refused connection, not a timeout, whatever the load.
      timeoutMs: timeBudget(2000),
      rateLimitFloor: 0,
    });
    const error = await client.request(VIEWER, {}, viewerSchema).catch((caught: Error) => caught);
    expect(String(error)).not.toContain('secret-token-value');
    expect(error).toMatchObject({ kind: 'network' });
  });

  test('counts mutations, and the fake server executes against the real schema', async () => {
    const world = createWorld();
    addPullRequest(world);
    const server = await startFakeGithub(world);
    try {
      const client = createGraphqlClient({
        transport: createHttpsTransport({ url: server.url, token: 't' }),
        // The fake builds GitHub's whole schema on its first request: seconds on a loaded machine.
        timeoutMs: 60_000,
        rateLimitFloor: 0,
      });
      await expect(client.request('query Bad { viewer { bogusField } }', {}, viewerSchema)).rejects.toThrow(
        'Cannot query field "bogusField" on type "User".',
      );
      expect(client.mutationsSent).toBe(0);
    } finally {
      await server.close();
    }
  });
});
