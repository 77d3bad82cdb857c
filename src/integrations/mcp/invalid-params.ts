import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

type RequestHandler = (request: { params?: { name?: unknown; arguments?: unknown } }, extra: unknown) => unknown;

/**
 * A `tools/call` whose `arguments` is not an object is invalid params (-32602), as JSON-RPC says. The SDK parses the
 * request with its schema before its own invalid-params check and answers the parse error as internal (-32603);
 * this puts the check first. Call after the tools are registered (the SDK installs its handler with the first one).
 */
export function answerBadArgumentsAsInvalidParams(server: McpServer): void {
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, RequestHandler> })._requestHandlers;
  const original = handlers?.get('tools/call');
  if (!handlers || !original) return;
  handlers.set('tools/call', (request, extra) => {
    const args = request.params?.arguments;
    if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) {
      const got = args === null ? 'null' : Array.isArray(args) ? 'an array' : `a ${typeof args}`;
      const name = typeof request.params?.name === 'string' ? request.params.name : 'the tool';
      throw new McpError(
        ErrorCode.InvalidParams,
        `tools/call: "arguments" must be an object (got ${got}); call ${name} with {} or an object of its inputs`,
      );
    }
    return original(request, extra);
  });
}
