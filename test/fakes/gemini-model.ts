import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

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
  requests: GeminiRequest[];
  close(): Promise<void>;
}

export async function startGeminiModel(script: (request: GeminiRequest) => GeminiTurn): Promise<GeminiModel> {
  const requests: GeminiRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const url = req.url ?? '';
    if (url.includes(':countTokens')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"totalTokens":10}');
      return;
    }
    const request = JSON.parse(body || '{}') as GeminiRequest;
    const main = (request.tools ?? []).some((tool) => (tool.functionDeclarations ?? []).length > 0);
    if (main) requests.push(request);
    const turn: GeminiTurn = main
      ? script(request)
      : { kind: 'text', text: '{"next_speaker":"user","reasoning":"done"}' };
    const part = turn.kind === 'call' ? { functionCall: { name: turn.name, args: turn.args } } : { text: turn.text };
    const chunk = {
      candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
      modelVersion: 'gemini-2.5-pro',
    };
    if (url.includes(':streamGenerateContent')) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
    } else {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(chunk));
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
