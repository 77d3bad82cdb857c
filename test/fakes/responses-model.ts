import { sendJson, sendSse, startModelServer } from './scripted-model-server.js';

/**
 * A scripted OpenAI Responses API on 127.0.0.1 for driving the real Codex CLI offline (a custom model provider with
 * `wire_api = "responses"`). Every `POST …/responses` is answered by `script` as Responses SSE.
 *
 * Codex (0.169+) defers MCP tools: its request offers a `tool_search` tool (`execution: "client"`), and the MCP
 * tools reach the model only in the `tool_search_output` Codex sends back for a `tool_search_call`, grouped in a
 * namespace (`mcp__<server>`). A call of such a tool names the namespace apart from the tool.
 */
export type ResponsesTurn =
  | { kind: 'tool'; callId: string; name: string; namespace?: string; arguments: Record<string, unknown> }
  | { kind: 'tool_search'; callId: string; query: string }
  | { kind: 'text'; text: string };

export interface ResponsesRequest {
  model?: string;
  tools?: Array<{ type?: string; name?: string }>;
  input: Array<{
    type?: string;
    role?: string;
    call_id?: string;
    output?: unknown;
    content?: unknown;
    tools?: unknown;
  }>;
}

export interface ResponsesModel {
  url: string;
  /** Every request, in order, as received. */
  requests: ResponsesRequest[];
  /** The same requests' raw bodies. */
  bodies: string[];
  close(): Promise<void>;
}

export async function startResponsesModel(
  script: (request: ResponsesRequest) => ResponsesTurn,
): Promise<ResponsesModel> {
  const requests: ResponsesRequest[] = [];
  const bodies: string[] = [];
  const server = await startModelServer(({ method, url, body }, res) => {
    if (method !== 'POST' || !url.endsWith('/responses')) {
      return sendJson(res, 404, { error: { message: 'not found' } });
    }
    const request = JSON.parse(body || '{}') as ResponsesRequest;
    requests.push(request);
    bodies.push(body);
    const counter = requests.length;
    const id = `resp_${counter}`;
    const item = outputItem(script(request), counter);
    const usage = {
      input_tokens: 10,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 5,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 15,
    };
    const events: Array<Record<string, unknown>> = [
      { type: 'response.created', response: { id, status: 'in_progress', output: [] } },
      { type: 'response.output_item.added', output_index: 0, item },
      { type: 'response.output_item.done', output_index: 0, item },
      { type: 'response.completed', response: { id, status: 'completed', output: [item], usage } },
    ];
    sendSse(
      res,
      events.map((data) => ({ event: data.type as string, data })),
    );
  });
  return { url: `${server.origin}/v1`, requests, bodies, close: server.close };
}

function outputItem(turn: ResponsesTurn, counter: number): Record<string, unknown> {
  switch (turn.kind) {
    case 'tool':
      return {
        type: 'function_call',
        id: `fc_${counter}`,
        call_id: turn.callId,
        name: turn.name,
        ...(turn.namespace ? { namespace: turn.namespace } : {}),
        arguments: JSON.stringify(turn.arguments),
        status: 'completed',
      };
    case 'tool_search':
      return {
        type: 'tool_search_call',
        id: `ts_${counter}`,
        call_id: turn.callId,
        execution: 'client',
        status: 'completed',
        arguments: { query: turn.query },
      };
    case 'text':
      return {
        type: 'message',
        id: `msg_${counter}`,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: turn.text, annotations: [] }],
      };
  }
}
