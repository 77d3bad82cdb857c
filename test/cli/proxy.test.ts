import { writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { fakeChecksumToken } from '../../src/secrets/sample-tokens.js';
import { makeTestCa, removeTestCa, type TestCa } from '../fakes/https-provider/fake-provider.js';
import { type FakeProxy, startFakeProxy } from '../fakes/proxy/connect-proxy.js';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

/**
 * The built CLI behind a corporate proxy: every request (OSV, GitHub's advisory GraphQL API, secret verification)
 * goes through HTTPS_PROXY as a CONNECT tunnel to an HTTPS server whose certificate only NODE_EXTRA_CA_CERTS makes
 * trusted; http:// URLs go through HTTP_PROXY; NO_PROXY bypasses it; a refusing proxy is one line, no stack trace.
 */
const GH_TOKEN = fakeChecksumToken('ghp_', 'proxy-advisories');
const LEAKED = fakeChecksumToken('ghp_', 'proxy-verify-live');

let ca: TestCa;
let https: Server;
let httpsBase: string;
let http: Server;
let httpBase: string;
const served: string[] = [];

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    request.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    request.on('end', () => resolve(text));
  });
}

/** OSV's querybatch (nothing known), GitHub's advisory GraphQL (no vulnerabilities) and GitHub's `/user`. */
async function answer(request: IncomingMessage, response: import('node:http').ServerResponse, scheme: string) {
  const body = await readBody(request);
  served.push(`${scheme} ${request.method} ${request.url}`);
  const json = (value: unknown) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  if (request.url === '/v1/querybatch') {
    const { queries } = JSON.parse(body) as { queries: unknown[] };
    return json({ results: queries.map(() => ({})) });
  }
  if (request.url === '/graphql') {
    const aliases = [...(JSON.parse(body) as { query: string }).query.matchAll(/(p\d+): securityVulnerabilities/g)];
    return json({ data: Object.fromEntries(aliases.map((match) => [match[1], { nodes: [] }])) });
  }
  if (request.url === '/user' && request.headers.authorization === `Bearer ${LEAKED}`)
    return json({ login: 'octocat' });
  response.writeHead(401).end();
}

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

beforeAll(async () => {
  ca = makeTestCa();
  https = createHttpsServer({ key: ca.key, cert: ca.cert }, (req, res) => void answer(req, res, 'https'));
  httpsBase = `https://127.0.0.1:${await listen(https)}`;
  http = createHttpServer((req, res) => void answer(req, res, 'http'));
  httpBase = `http://127.0.0.1:${await listen(http)}`;
});
afterAll(async () => {
  await new Promise((resolve) => https.close(resolve));
  await new Promise((resolve) => http.close(resolve));
  removeTestCa(ca);
});

let repo: TempRepo | undefined;
let proxy: FakeProxy | undefined;
afterEach(async () => {
  await repo?.cleanup();
  await proxy?.close();
  repo = undefined;
  proxy = undefined;
  served.length = 0;
});

async function makeRepo(osvUrl: string): Promise<TempRepo> {
  repo = await createTempRepo({ files: { 'app.ts': `const gh = "${LEAKED}";\n` } });
  // Verification endpoints are the user's: a config outside the repository, named by TOLLGATE_CONFIG.
  const userConfig = join(repo.home, 'tollgate.yaml');
  await writeFile(
    userConfig,
    `advisories:\n  osv: { url: ${JSON.stringify(osvUrl)} }\n  github: { url: ${JSON.stringify(`${httpsBase}/graphql`)}, tokenEnv: [TOLLGATE_TEST_GH] }\nsecrets:\n  verifyEndpoints:\n    github: ${httpsBase}\n`,
  );
  repo.env = { ...repo.env, TOLLGATE_CONFIG: userConfig, TOLLGATE_TEST_GH: GH_TOKEN, NODE_EXTRA_CA_CERTS: ca.caFile };
  return repo;
}

const proxyVars = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'];
function withProxy(env: NodeJS.ProcessEnv, vars: Record<string, string>): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(Object.entries(env).filter(([name]) => !proxyVars.includes(name)));
  return { ...clean, ...vars };
}

/** Each call asks about another version: answers are cached per package. */
let asked = 0;
const check = (root: string, env: NodeJS.ProcessEnv, source: string) =>
  runCli(['advisories', 'check', '--source', source, '--format', 'json', `npm:left-pad@1.3.${asked++}`], {
    cwd: root,
    env,
  });

describe('behind a proxy', () => {
  test('OSV, GitHub advisories and secret verification over https:// all go through the CONNECT proxy', async () => {
    const { root, env } = await makeRepo(httpsBase);
    proxy = await startFakeProxy();
    const proxied = withProxy(env, { https_proxy: proxy.url });
    const target = new URL(httpsBase).host;
    for (const source of ['osv', 'github']) {
      const result = await check(root, proxied, source);
      expect(result.exitCode, result.stderr + result.stdout).toBe(0);
    }
    const scan = await runCli(['scan', 'app.ts', '--verify', '--format', 'json'], { cwd: root, env: proxied });
    expect(scan.stdout, scan.stderr).toContain('"verification": "live"');
    expect(scan.stdout + scan.stderr).not.toContain(LEAKED);
    expect(served).toEqual(['https POST /v1/querybatch', 'https POST /graphql', 'https GET /user']);
    expect(proxy.tunnels).toEqual([target, target, target]);
  });

  test('http:// goes through HTTP_PROXY; NO_PROXY (host:port, or *) reaches the server directly', async () => {
    const { root, env } = await makeRepo(httpBase);
    proxy = await startFakeProxy();
    const viaHttp = await check(root, withProxy(env, { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url }), 'osv');
    expect(viaHttp.exitCode, viaHttp.stderr).toBe(0);
    expect(proxy.forwarded).toEqual([`${httpBase}/v1/querybatch`]);
    const noProxy = `${new URL(httpBase).host},${new URL(httpsBase).host}`;
    for (const vars of [{ NO_PROXY: noProxy }, { no_proxy: '*' }] as Record<string, string>[]) {
      const direct = withProxy(env, { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, ...vars });
      expect((await check(root, direct, 'osv')).exitCode).toBe(0);
      expect((await check(root, direct, 'github')).exitCode).toBe(0);
    }
    expect(proxy.forwarded).toHaveLength(1);
    expect(proxy.tunnels).toEqual([]);
    expect(served).toHaveLength(5);
  });

  test('a proxy that refuses gives one line naming it and the target, and the check is not a pass', async () => {
    const { root, env } = await makeRepo(httpsBase);
    proxy = await startFakeProxy({ refuse: true });
    const result = await check(root, withProxy(env, { HTTPS_PROXY: proxy.url }), 'osv');
    expect(result.exitCode).toBe(1);
    const said = `${result.stdout}\n${result.stderr}`;
    expect(said).toContain(`proxy ${proxy.url} refused the tunnel to ${new URL(httpsBase).host} (HTTP 403 Forbidden)`);
    expect(said).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    expect(served).toEqual([]);
  });

  test('without NODE_EXTRA_CA_CERTS the self-signed server is not trusted through the tunnel either', async () => {
    const { root, env } = await makeRepo(httpsBase);
    proxy = await startFakeProxy();
    const { NODE_EXTRA_CA_CERTS: _, ...untrusting } = withProxy(env, { HTTPS_PROXY: proxy.url });
    const result = await check(root, untrusting, 'osv');
    expect(result.exitCode).toBe(1);
    expect(`${result.stdout}${result.stderr}`).toMatch(/cannot reach .*(CERT|SELF_SIGNED|UNABLE_TO_VERIFY)/);
    expect(proxy.tunnels).toHaveLength(1);
    expect(served).toEqual([]);
  });
});
