import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A scripted OpenAI Responses API on 127.0.0.1 for driving the real Codex CLI offline (a custom model provider with
 * `wire_api = "responses"`). Every `POST …/responses` is answered by `script` as Responses SSE.
 */
export type ResponsesTurn =
  | { kind: 'tool'; callId: string; name: string; arguments: Record<string, unknown> }
  | { kind: 'text'; text: string };

export interface ResponsesRequest {
  model?: string;
  tools?: Array<{ type?: string; name?: string }>;
  input: Array<{ type?: string; role?: string; call_id?: string; output?: unknown; content?: unknown }>;
}

export interface ResponsesModel {
  url: string;
  requests: ResponsesRequest[];
  close(): Promise<void>;
}

export async function startResponsesModel(
  script: (request: ResponsesRequest) => ResponsesTurn,
): Promise<ResponsesModel> {
  const requests: ResponsesRequest[] = [];
  let counter = 0;
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    if (req.method !== 'POST' || !req.url?.endsWith('/responses')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    const request = JSON.parse(body || '{}') as ResponsesRequest;
    requests.push(request);
    const turn = script(request);
    counter += 1;
    const id = `resp_${counter}`;
    const item =
      turn.kind === 'tool'
        ? {
            type: 'function_call',
            id: `fc_${counter}`,
            call_id: turn.callId,
            name: turn.name,
            arguments: JSON.stringify(turn.arguments),
            status: 'completed',
          }
        : {
            type: 'message',
            id: `msg_${counter}`,
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: turn.text, annotations: [] }],
          };
    const events: Array<Record<string, unknown>> = [
      { type: 'response.created', response: { id, status: 'in_progress', output: [] } },
      { type: 'response.output_item.added', output_index: 0, item },
      { type: 'response.output_item.done', output_index: 0, item },
      {
        type: 'response.completed',
        response: {
          id,
          status: 'completed',
          output: [item],
          usage: {
            input_tokens: 10,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: 5,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: 15,
          },
        },
      },
    ];
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const event of events) res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}
