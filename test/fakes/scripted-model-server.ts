import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The HTTP plumbing the scripted model servers share (Anthropic Messages, OpenAI Responses, Gemini): a server on
 * 127.0.0.1 that hands each request's body to the model's handler and keeps every body the agent's turns sent, as
 * received, so a test can assert on exactly what the model was shown.
 */
export interface ModelRequest {
  method: string;
  url: string;
  /** The raw body text. */
  body: string;
}

export interface ScriptedModelServer {
  /** `http://127.0.0.1:PORT` (no trailing slash). */
  origin: string;
  close(): Promise<void>;
}

export type ModelHandler = (request: ModelRequest, res: ServerResponse) => void;

export async function startModelServer(handler: ModelHandler): Promise<ScriptedModelServer> {
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    handler({ method: req.method ?? 'GET', url: req.url ?? '', body }, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        // An agent CLI may keep its connection alive after it exits: do not wait for it.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A JSON answer. */
export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}

/**
 * A whole server-sent event stream at once: each event as `event: NAME` (when named) and `data: JSON`, then the end.
 * `separator` is the blank line between events (Gemini's API sends CRLF).
 */
export function sendSse(
  res: ServerResponse,
  events: ReadonlyArray<{ event?: string; data: unknown }>,
  separator = '\n\n',
): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const { event, data } of events) {
    res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}${separator}`);
  }
  res.end();
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}
