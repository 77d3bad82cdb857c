import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { describeProxy, type ProxyEnv, proxyFor } from './proxy-env.js';
import { networkFailure, openTunnel, proxyAuthorization, tlsOverTunnel } from './proxy-tunnel.js';

/**
 * The one `fetch` every outbound request of tollgate goes through (OSV, GitHub's advisories, REST and GraphQL APIs,
 * the Action's comment). Node's own fetch ignores `HTTPS_PROXY`/`HTTP_PROXY`/`NO_PROXY` (see proxy-env.ts); when one
 * applies the request is sent through the proxy here (a CONNECT tunnel for https://, the absolute URL to the proxy
 * for http://), otherwise it is Node's fetch unchanged. Both trust `NODE_EXTRA_CA_CERTS`, which Node adds to the
 * default CA store at start. Bodies are read whole: every caller reads JSON or text.
 */
export const httpFetch: typeof fetch = (input, init) => fetchWith(process.env, input, init);

export async function fetchWith(
  env: ProxyEnv,
  input: string | URL | Request,
  init: RequestInit = {},
): Promise<Response> {
  const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
  let proxy: URL | null;
  try {
    proxy = proxyFor(url, env);
  } catch (error) {
    throw networkFailure((error as Error).message);
  }
  if (!proxy) return fetch(url, init);
  return viaProxy(env, url, proxy, init, MAX_REDIRECTS);
}

const MAX_REDIRECTS = 10;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

interface RawAnswer {
  status: number;
  statusText: string;
  headers: Headers;
  body: Buffer;
}

async function viaProxy(
  env: ProxyEnv,
  url: URL,
  proxy: URL,
  init: RequestInit,
  redirectsLeft: number,
): Promise<Response> {
  init.signal?.throwIfAborted();
  const method = (init.method ?? 'GET').toUpperCase();
  const answer = await exchange(url, proxy, method, new Headers(init.headers), bodyBytes(init.body), init.signal);
  const location = answer.headers.get('location');
  if (REDIRECTS.has(answer.status) && location && (init.redirect ?? 'follow') === 'follow') {
    if (redirectsLeft <= 0) throw networkFailure(`more than ${MAX_REDIRECTS} redirects from ${url.origin}`);
    const next = new URL(location, url);
    const headers = new Headers(init.headers);
    if (next.origin !== url.origin) headers.delete('authorization');
    const toGet = answer.status === 303 || ((answer.status === 301 || answer.status === 302) && method === 'POST');
    const followed: RequestInit = { ...init, headers, ...(toGet ? { method: 'GET', body: null } : {}) };
    return fetchWith(env, next, followed);
  }
  if (answer.status < 200 || answer.status > 599)
    throw networkFailure(`${url.origin} answered HTTP ${answer.status} through proxy ${describeProxy(proxy)}`);
  return new Response(NULL_BODY.has(answer.status) ? null : new Uint8Array(answer.body), {
    status: answer.status,
    statusText: answer.statusText,
    headers: answer.headers,
  });
}

function bodyBytes(body: RequestInit['body']): Buffer | null {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(new Uint8Array(body));
  throw new TypeError('tollgate sends only string or byte bodies');
}

function exchange(
  url: URL,
  proxy: URL,
  method: string,
  headers: Headers,
  body: Buffer | null,
  signal: AbortSignal | null | undefined,
): Promise<RawAnswer> {
  const outgoing: Record<string, string> = {};
  headers.forEach((value, name) => {
    outgoing[name] = value;
  });
  if (body) outgoing['content-length'] = String(body.length);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const abort = signal ?? undefined;
  return new Promise<RawAnswer>((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException) => {
      if (abort?.aborted) reject(abort.reason);
      else if (error instanceof TypeError && error.cause) reject(error);
      else reject(networkFailure(error.message.split('\n')[0]!, error.code));
    };
    const onAnswer = (response: IncomingMessage) => {
      readAnswer(response).then(resolve, fail);
    };
    if (url.protocol === 'http:') {
      // A plain-HTTP request goes to the proxy whole, with the absolute URL as its target.
      const request = httpRequest(
        {
          host: proxy.hostname.replace(/^\[(.*)\]$/, '$1'),
          port: proxy.port || 80,
          method,
          path: url.href,
          headers: { ...outgoing, host: url.host, ...proxyAuthorization(proxy) },
          agent: false,
          ...(abort ? { signal: abort } : {}),
        },
        onAnswer,
      );
      request.once('error', (error: NodeJS.ErrnoException) => {
        if (abort?.aborted) reject(abort.reason);
        else reject(networkFailure(`cannot reach proxy ${describeProxy(proxy)} (${error.code ?? error.message})`));
      });
      request.end(body ?? undefined);
      return;
    }
    openTunnel(proxy, host, port, abort).then((socket) => {
      const request = httpsRequest(
        {
          host,
          port,
          method,
          path: `${url.pathname}${url.search}`,
          headers: { ...outgoing, host: url.host },
          createConnection: () => tlsOverTunnel(socket, host),
          ...(abort ? { signal: abort } : {}),
        },
        onAnswer,
      );
      request.once('error', fail);
      request.end(body ?? undefined);
    }, fail);
  });
}

function readAnswer(response: IncomingMessage): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.once('error', reject);
    response.once('end', () => {
      const headers = new Headers();
      for (let i = 0; i + 1 < response.rawHeaders.length; i += 2)
        headers.append(response.rawHeaders[i]!, response.rawHeaders[i + 1]!);
      try {
        const body = decode(Buffer.concat(chunks), headers.get('content-encoding'));
        headers.delete('content-encoding');
        headers.delete('content-length');
        resolve({ status: response.statusCode ?? 0, statusText: response.statusMessage ?? '', headers, body });
      } catch (error) {
        reject(error);
      }
    });
  });
}

/** Node's fetch decodes compressed answers; so does this path, though it never asks for compression. */
function decode(body: Buffer, encoding: string | null): Buffer {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return gunzipSync(body);
    case 'deflate':
      return inflateSync(body);
    case 'br':
      return brotliDecompressSync(body);
    default:
      return body;
  }
}
