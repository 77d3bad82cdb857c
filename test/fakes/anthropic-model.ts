import { sendJson, sendSse, startModelServer } from './scripted-model-server.js';

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
  /** The same requests' raw bodies. */
  bodies: string[];
  close(): Promise<void>;
}

export async function startAnthropicModel(script: (request: MessagesRequest) => ScriptedTurn): Promise<ScriptedModel> {
  const requests: MessagesRequest[] = [];
  const bodies: string[] = [];
  const server = await startModelServer(({ url, body }, res) => {
    if (url.includes('count_tokens')) return sendJson(res, 200, { input_tokens: 10 });
    if (!url.startsWith('/v1/messages')) return sendJson(res, 404, {});
    const request = JSON.parse(body || '{}') as MessagesRequest;
    const main = (request.tools ?? []).length > 0;
    if (main) {
      requests.push(request);
      bodies.push(body);
    }
    const turn = main ? script(request) : ({ kind: 'text', text: 'ok' } as const);
    if (request.stream) sendSse(res, sseEvents(turn, request.model));
    else sendJson(res, 200, message(turn, request.model));
  });
  return { url: server.origin, requests, bodies, close: server.close };
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

function sseEvents(turn: ScriptedTurn, model?: string): Array<{ event: string; data: unknown }> {
  const start = { ...message(turn, model), content: [], stop_reason: null };
  const opened = turn.kind === 'tool' ? { ...block(turn), input: {} } : { type: 'text', text: '' };
  const delta =
    turn.kind === 'tool'
      ? { type: 'input_json_delta', partial_json: JSON.stringify(turn.input) }
      : { type: 'text_delta', text: turn.text };
  const stopReason = turn.kind === 'tool' ? 'tool_use' : 'end_turn';
  const events: unknown[] = [
    { type: 'message_start', message: start },
    { type: 'content_block_start', index: 0, content_block: opened },
    { type: 'content_block_delta', index: 0, delta },
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 5 } },
    { type: 'message_stop' },
  ];
  return events.map((data) => ({ event: (data as { type: string }).type, data }));
}
