import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type Socket } from 'node:net';
import { type TLSSocket, connect as tlsConnect } from 'node:tls';
import { describeProxy } from './proxy-env.js';

/**
 * A network failure shaped like fetch's (`TypeError` with a `cause` carrying `message` and sometimes `code`), so
 * every caller's existing "cannot reach X (why)" message reads the proxy's part of it. Never holds a header.
 */
export function networkFailure(message: string, code?: string): TypeError {
  return new TypeError('fetch failed', { cause: code ? { message, code } : { message } });
}

/** `Proxy-Authorization` from the proxy URL's user and password, as curl and npm send it. */
export function proxyAuthorization(proxy: URL): Record<string, string> {
  if (!proxy.username) return {};
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return { 'proxy-authorization': `Basic ${Buffer.from(credentials).toString('base64')}` };
}

/** The proxy itself could not be reached, as opposed to a proxy that hung up. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

function reason(error: NodeJS.ErrnoException): string {
  return error.code ?? error.message.split('\n')[0]!;
}

/**
 * Opens a CONNECT tunnel through `proxy` to `host:port` and hands back the raw socket for TLS to run over. A proxy
 * that cannot be reached, or answers anything but 2xx, rejects with one line naming the proxy (without credentials),
 * the target and the proxy's status.
 */
export function openTunnel(proxy: URL, host: string, port: string, signal?: AbortSignal): Promise<Socket> {
  const target = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const via = describeProxy(proxy);
  const send = proxy.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const connect = send({
      host: proxy.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: proxy.port || (proxy.protocol === 'https:' ? 443 : 80),
      method: 'CONNECT',
      path: target,
      headers: { host: target, ...proxyAuthorization(proxy) },
      agent: false,
      ...(signal ? { signal } : {}),
    });
    connect.once('connect', (response, socket) => {
      if (response.statusCode !== undefined && response.statusCode >= 200 && response.statusCode < 300) {
        resolve(socket);
        return;
      }
      socket.destroy();
      const status = `HTTP ${response.statusCode}${response.statusMessage ? ` ${response.statusMessage}` : ''}`;
      reject(networkFailure(`proxy ${via} refused the tunnel to ${target} (${status})`));
    });
    connect.once('error', (error: NodeJS.ErrnoException) => {
      if (signal?.aborted) reject(signal.reason);
      else if (UNREACHABLE.has(error.code ?? ''))
        reject(networkFailure(`cannot reach proxy ${via} (${reason(error)})`));
      else reject(networkFailure(`proxy ${via} dropped the tunnel to ${target} (${reason(error)})`));
    });
    connect.end();
  });
}

/** TLS to `host` over an open tunnel, checking the certificate against `host` (SNI only for names, not IPs). */
export function tlsOverTunnel(socket: Socket, host: string, ca?: string | Buffer): TLSSocket {
  return tlsConnect({ socket, host, ...(isIP(host) ? {} : { servername: host }), ...(ca !== undefined ? { ca } : {}) });
}
