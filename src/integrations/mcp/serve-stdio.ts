import { createTollgateMcpServer, type TollgateMcpServerOptions } from './server.js';
import { JsonRpcStdioTransport } from './stdio-transport.js';

/**
 * `tollgate mcp`: serves over stdin/stdout until the client closes stdin. stdout carries JSON-RPC only; every
 * diagnostic goes to stderr.
 */
export async function serveStdio(options: TollgateMcpServerOptions): Promise<void> {
  const server = await createTollgateMcpServer(options);
  const transport = new JsonRpcStdioTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
