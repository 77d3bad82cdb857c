import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A scripted Anthropic Messages API on 127.0.0.1 for driving the real Claude Code CLI offline. Each main-agent
 * request (one that offers tools) is answered by `script` from the conversation so far; side requests (titles,
 * token counts, quota probes) get a short text. Replies stream as Anthropic SSE when asked.
 */
export type ScriptedTurn =
  | { kind: 'tool'; id: string; name: string; input: Record<string, unknown> }
  | { kind: 'text'; text: string };

export interface MessagesRequest {
  model?: string;
  stream?: boolean;
  tools?: Array<{ name: string }>;
  messages: Array<{ role: string; content: unknown }>;
}

export interface ScriptedModel {
  url: string;
  /** Every main-agent request, in order, as received. */
  requests: MessagesRequest[];
  close(): Promise<void>;
}

export async function startAnthropicModel(script: (request: MessagesRequest) => ScriptedTurn): Promise<ScriptedModel> {
  const requests: MessagesRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    if (req.url?.includes('count_tokens')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"input_tokens":10}');
      return;
    }
    if (!req.url?.startsWith('/v1/messages')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
      return;
    }
    const request = JSON.parse(body || '{}') as MessagesRequest;
    const main = (request.tools ?? []).length > 0;
    if (main) requests.push(request);
    const turn = main ? script(request) : ({ kind: 'text', text: 'ok' } as const);
    if (request.stream) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const [event, data] of sseEvents(turn, request.model))
        res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      res.end();
    } else {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(message(turn, request.model)));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
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

const USAGE = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

function block(turn: ScriptedTurn) {
  return turn.kind === 'tool'
    ? { type: 'tool_use', id: turn.id, name: turn.name, input: turn.input }
    : { type: 'text', text: turn.text };
}

function message(turn: ScriptedTurn, model = 'claude-sonnet-4-5') {
  return {
    id: `msg_${Date.now()}`,
    type: 'message',
    role: 'assistant',
    model,
    content: [block(turn)],
    stop_reason: turn.kind === 'tool' ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: USAGE,
  };
}

function sseEvents(turn: ScriptedTurn, model?: string): Array<[string, unknown]> {
  const start = { ...message(turn, model), content: [], stop_reason: null };
  const opened = turn.kind === 'tool' ? { ...block(turn), input: {} } : { type: 'text', text: '' };
  const delta =
    turn.kind === 'tool'
      ? { type: 'input_json_delta', partial_json: JSON.stringify(turn.input) }
      : { type: 'text_delta', text: turn.text };
  return [
    ['message_start', { type: 'message_start', message: start }],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: opened }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    [
      'message_delta',
      {
        type: 'message_delta',
        delta: { stop_reason: turn.kind === 'tool' ? 'tool_use' : 'end_turn', stop_sequence: null },
        usage: { output_tokens: 5 },
      },
    ],
    ['message_stop', { type: 'message_stop' }],
  ];
}
