import { createServer, request as httpRequest, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';

/**
 * A forward proxy on 127.0.0.1, as corporate networks run them: CONNECT tunnels for https:// (the proxy sees only
 * `host:port`) and absolute-URL requests for http://. It records what went through it; `refuse` answers 403 to
 * everything, as a proxy that does not allow the destination does.
 */
export interface FakeProxy {
  /** `http://127.0.0.1:PORT`, for HTTPS_PROXY / HTTP_PROXY. */
  url: string;
  /** CONNECT targets, `host:port`, in order. */
  tunnels: string[];
  /** Absolute URLs of plain-HTTP requests, in order. */
  forwarded: string[];
  /** Proxy-Authorization headers received (CONNECT and plain). */
  authorizations: string[];
  close(): Promise<void>;
}

export async function startFakeProxy(options: { refuse?: boolean } = {}): Promise<FakeProxy> {
  const tunnels: string[] = [];
  const forwarded: string[] = [];
  const authorizations: string[] = [];
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const server: Server = createServer((request, response) => {
    forwarded.push(request.url ?? '');
    const auth = request.headers['proxy-authorization'];
    if (auth) authorizations.push(auth);
    if (options.refuse) {
      response.writeHead(403, { 'content-type': 'text/plain' }).end('denied by policy');
      return;
    }
    const target = new URL(request.url ?? '/');
    const headers = { ...request.headers };
    delete headers['proxy-authorization'];
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port || 80,
        method: request.method,
        path: `${target.pathname}${target.search}`,
        headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.writeHead(502).end());
    request.pipe(upstream);
  });
  server.on('connection', track);
  server.on('connect', (request, client: Socket, head: Buffer) => {
    const target = request.url ?? '';
    tunnels.push(target);
    const auth = request.headers['proxy-authorization'];
    if (auth) authorizations.push(auth);
    if (options.refuse) {
      client.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    const [, host, port] = /^\[?([^\]]+?)\]?:(\d+)$/.exec(target) ?? [];
    const upstream = connect(Number(port), host ?? '', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    track(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    forwarded,
    authorizations,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
