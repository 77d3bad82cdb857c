import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { type FakeProxy, startFakeProxy } from '../../../test/fakes/proxy/connect-proxy.js';
import { fetchWith } from './http-fetch.js';

/** A plain-HTTP origin on 127.0.0.1 that echoes what it got; `/redirect` sends the client on to `/echo`. */
let origin: Server;
let base: string;
const seen: { path: string; auth: string | undefined; body: string }[] = [];

function body(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    request.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    request.on('end', () => resolve(text));
  });
}

beforeAll(async () => {
  origin = createServer(async (request, response) => {
    const text = await body(request);
    seen.push({ path: request.url ?? '', auth: request.headers.authorization, body: text });
    if (request.url === '/redirect') return response.writeHead(307, { location: '/echo' }).end();
    if (request.url === '/empty') return response.writeHead(204).end();
    response.writeHead(201, { 'content-type': 'application/json', 'x-ratelimit-remaining': '7' });
    response.end(JSON.stringify({ method: request.method, path: request.url, body: text }));
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => origin.close(() => resolve())));

let proxy: FakeProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  seen.length = 0;
});

function causeOf(error: unknown): string {
  return String((error as { cause?: { message?: string } }).cause?.message);
}

describe('fetchWith and the proxy variables', () => {
  test('an http:// request goes to HTTP_PROXY whole, with the proxy credentials from its URL', async () => {
    proxy = await startFakeProxy();
    const env = { HTTP_PROXY: proxy.url.replace('http://', 'http://corp%40user:s3cret@') };
    const response = await fetchWith(env, `${base}/echo?page=2`, {
      method: 'POST',
      headers: { authorization: 'Bearer origin-token' },
      body: '{"a":1}',
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-ratelimit-remaining')).toBe('7');
    expect(await response.json()).toEqual({ method: 'POST', path: '/echo?page=2', body: '{"a":1}' });
    expect(proxy.forwarded).toEqual([`${base}/echo?page=2`]);
    expect(proxy.authorizations).toEqual([`Basic ${Buffer.from('corp@user:s3cret').toString('base64')}`]);
    expect(seen[0]?.auth).toBe('Bearer origin-token');
  });

  test('redirects are followed through the proxy; a null-body status has no body', async () => {
    proxy = await startFakeProxy();
    const env = { http_proxy: proxy.url };
    const response = await fetchWith(env, `${base}/redirect`, { method: 'POST', body: 'x' });
    expect(await response.json()).toMatchObject({ method: 'POST', path: '/echo', body: 'x' });
    expect((await fetchWith(env, `${base}/empty`)).status).toBe(204);
    expect(proxy.forwarded).toEqual([`${base}/redirect`, `${base}/echo`, `${base}/empty`]);
  });

  test('NO_PROXY (host, host:port or *) reaches the origin directly', async () => {
    proxy = await startFakeProxy();
    const port = new URL(base).port;
    for (const noProxy of ['127.0.0.1', `127.0.0.1:${port}`, '*', 'example.com,127.0.0.1']) {
      const response = await fetchWith({ HTTP_PROXY: proxy.url, NO_PROXY: noProxy }, `${base}/echo`);
      expect(response.status).toBe(201);
    }
    expect(await fetchWith({ HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1:1' }, `${base}/echo`)).toHaveProperty(
      'status',
      201,
    );
    expect(proxy.forwarded).toEqual([`${base}/echo`]);
  });

  test('a proxy that refuses the tunnel fails with one line naming the proxy and the target', async () => {
    proxy = await startFakeProxy({ refuse: true });
    const env = { HTTPS_PROXY: proxy.url.replace('http://', 'http://user:hunter2@') };
    const error = await fetchWith(env, 'https://api.osv.dev/v1/querybatch').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TypeError);
    expect(causeOf(error)).toBe(`proxy ${proxy.url} refused the tunnel to api.osv.dev:443 (HTTP 403 Forbidden)`);
    expect(causeOf(error)).not.toContain('hunter2');
    expect(proxy.tunnels).toEqual(['api.osv.dev:443']);
  });

  test('a proxy that is not there fails with one line and the system error code', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    for (const url of ['https://api.github.com/graphql', `${base}/echo`]) {
      const error = await fetchWith(
        { HTTPS_PROXY: `http://127.0.0.1:${port}`, HTTP_PROXY: `http://127.0.0.1:${port}` },
        url,
      ).catch((caught: unknown) => caught);
      expect(causeOf(error)).toBe(`cannot reach proxy http://127.0.0.1:${port} (ECONNREFUSED)`);
    }
  });

  test('a bad proxy variable is a network failure naming the variable', async () => {
    const error = await fetchWith({ HTTPS_PROXY: 'ftp://proxy:21' }, 'https://api.osv.dev/').catch((e: unknown) => e);
    expect(causeOf(error)).toBe('HTTPS_PROXY uses ftp:// (only http:// and https:// proxies work)');
  });

  test('the caller’s signal stops a request through the proxy', async () => {
    proxy = await startFakeProxy();
    const signal = AbortSignal.abort(new DOMException('gone', 'TimeoutError'));
    await expect(fetchWith({ HTTP_PROXY: proxy.url }, `${base}/echo`, { signal })).rejects.toMatchObject({
      name: 'TimeoutError',
    });
  });
});
