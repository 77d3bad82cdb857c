import { sendJson, sendSse, startModelServer } from './scripted-model-server.js';

/**
 * A scripted Gemini API (`…:streamGenerateContent?alt=sse`, `…:generateContent`, `…:countTokens`) on 127.0.0.1 for
 * driving the real Gemini CLI offline through GOOGLE_GEMINI_BASE_URL. Requests that offer tools are the agent's turns
 * and go to `script`; the CLI's side requests (routing, next-speaker checks) get a plain short answer.
 */
export type GeminiTurn = { kind: 'call'; name: string; args: Record<string, unknown> } | { kind: 'text'; text: string };

export interface GeminiRequest {
  contents: Array<{ role?: string; parts?: Array<Record<string, unknown>> }>;
  tools?: Array<{ functionDeclarations?: Array<{ name: string }> }>;
}

export interface GeminiModel {
  url: string;
  /** Every agent turn's request, in order, as received. */
  requests: GeminiRequest[];
  /** The same requests' raw bodies. */
  bodies: string[];
  close(): Promise<void>;
}

export async function startGeminiModel(script: (request: GeminiRequest) => GeminiTurn): Promise<GeminiModel> {
  const requests: GeminiRequest[] = [];
  const bodies: string[] = [];
  const server = await startModelServer(({ url, body }, res) => {
    if (url.includes(':countTokens')) return sendJson(res, 200, { totalTokens: 10 });
    const request = JSON.parse(body || '{}') as GeminiRequest;
    const main = (request.tools ?? []).some((tool) => (tool.functionDeclarations ?? []).length > 0);
    if (main) {
      requests.push(request);
      bodies.push(body);
    }
    const turn: GeminiTurn = main
      ? script(request)
      : { kind: 'text', text: '{"next_speaker":"user","reasoning":"done"}' };
    const part = turn.kind === 'call' ? { functionCall: { name: turn.name, args: turn.args } } : { text: turn.text };
    const chunk = {
      candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
      modelVersion: 'gemini-2.5-pro',
    };
    if (url.includes(':streamGenerateContent')) sendSse(res, [{ data: chunk }], '\r\n\r\n');
    else sendJson(res, 200, chunk);
  });
  return { url: server.origin, requests, bodies, close: server.close };
}
