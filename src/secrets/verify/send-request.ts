import { Agent, request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { proxyFor } from '../../core/http/proxy-env.js';
import { openTunnel, tlsOverTunnel } from '../../core/http/proxy-tunnel.js';
import type { VerifyRequest, VerifyResponse } from './types.js';

export interface SendOptions {
  timeoutMs: number;
  /** Extra CA certificates (tests); the CLI gets them from NODE_EXTRA_CA_CERTS. */
  ca?: string | Buffer;
  /** The run's own signal (the gate's budget): aborting it stops the request. */
  signal?: AbortSignal;
}

/** One connection per provider reused across its findings: a TLS handshake costs as much as the answer. */
const agent = new Agent({ keepAlive: true, maxSockets: 16 });

/** Enough of a body to read a JSON verdict; more is not read. */
const MAX_BODY = 16_384;

/**
 * Sends one verification request over HTTPS only (a credential never crosses the network in clear), no redirects
 * followed. Rejects on timeout or network error with a message that names neither the URL's credential nor headers.
 */
export async function sendVerifyRequest(req: VerifyRequest, options: SendOptions): Promise<VerifyResponse> {
  const url = new URL(req.url);
  if (url.protocol !== 'https:') throw new Error('refused: not an https URL');
  const signal = options.signal
    ? AbortSignal.any([AbortSignal.timeout(options.timeoutMs), options.signal])
    : AbortSignal.timeout(options.timeoutMs);
  const tunnel = await tunnelIfProxied(url, signal, options);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return new Promise((resolve, reject) => {
    const outgoing = httpsRequest(
      url,
      {
        method: req.method,
        // Through a proxy: TLS over the proxy's CONNECT tunnel, one per request; direct: the pooled agent.
        ...(tunnel ? { createConnection: () => tlsOverTunnel(tunnel, host, options.ca) } : { agent }),
        headers: { ...req.headers, 'user-agent': 'tollgate-verify' },
        signal,
        ...(options.ca !== undefined ? { ca: options.ca } : {}),
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (body.length < MAX_BODY) body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: body.slice(0, MAX_BODY) }));
        response.on('error', () => reject(new Error('connection lost while reading the answer')));
      },
    );
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      const timedOut = error.name === 'AbortError' || error.name === 'TimeoutError';
      if (options.signal?.aborted) reject(new Error('stopped: the run ran out of time or was cancelled'));
      else
        reject(
          new Error(
            timedOut ? `timed out after ${options.timeoutMs} ms` : `network error (${error.code ?? error.name})`,
          ),
        );
    });
    outgoing.end();
  });
}

/** The CONNECT tunnel when HTTPS_PROXY applies to `url` (see core/http/proxy-env.ts), else null. */
async function tunnelIfProxied(url: URL, signal: AbortSignal, options: SendOptions): Promise<Socket | null> {
  let proxy: URL | null;
  try {
    proxy = proxyFor(url, process.env);
  } catch (error) {
    throw new Error((error as Error).message);
  }
  if (!proxy) return null;
  try {
    return await openTunnel(proxy, url.hostname.replace(/^\[(.*)\]$/, '$1'), url.port || '443', signal);
  } catch (error) {
    if (options.signal?.aborted) throw new Error('stopped: the run ran out of time or was cancelled');
    if (signal.aborted) throw new Error(`timed out after ${options.timeoutMs} ms`);
    const cause = (error as { cause?: { message?: string } }).cause;
    throw new Error(cause?.message ?? 'network error (proxy)');
  }
}
