import { Agent, request as httpsRequest } from 'node:https';
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
export function sendVerifyRequest(req: VerifyRequest, options: SendOptions): Promise<VerifyResponse> {
  const url = new URL(req.url);
  if (url.protocol !== 'https:') return Promise.reject(new Error('refused: not an https URL'));
  return new Promise((resolve, reject) => {
    const outgoing = httpsRequest(
      url,
      {
        method: req.method,
        agent,
        headers: { ...req.headers, 'user-agent': 'tollgate-verify' },
        signal: options.signal
          ? AbortSignal.any([AbortSignal.timeout(options.timeoutMs), options.signal])
          : AbortSignal.timeout(options.timeoutMs),
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
