import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/** The most a line may hold before it is dropped unread (the SDK's own stdio transport allows as much). */
const MAX_LINE_BYTES = 10 * 1024 * 1024;

/**
 * The code for a request sent before the session is initialised. Neither JSON-RPC nor MCP names one; the SDK's own
 * Streamable HTTP server answers such a request with -32000 "Server not initialized", so a client sees the same error
 * from either transport (LSP's -32002 is the same idea, but not MCP's).
 */
export const NOT_INITIALIZED = -32000;

/** Requests the MCP lifecycle allows before initialisation has completed. */
const BEFORE_INITIALIZE = new Set(['initialize', 'ping']);

/**
 * MCP over stdin/stdout, one JSON-RPC message per line, answering what JSON-RPC 2.0 asks of a server and the SDK's
 * `StdioServerTransport` leaves unanswered: a line that is not JSON gets a parse error (-32700) and one that is JSON but
 * not a JSON-RPC message an invalid-request error (-32600), both with id null as the spec says when the id cannot be
 * known (the id of an invalid request is kept when it can be read); and the MCP lifecycle is kept: until the server
 * has answered `initialize`, any request but `initialize` and `ping` is refused (NOT_INITIALIZED). Clients that
 * follow the lifecycle (the SDK's `Client.connect` sends `initialize` first and waits for its answer) see no change.
 */
export class JsonRpcStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private buffer: Buffer = Buffer.alloc(0);
  private initializeId: RequestId | null = null;
  private initialized = false;
  private closed = false;

  constructor(
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
  ) {}

  private readonly onData = (chunk: Buffer) => {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (let end = this.buffer.indexOf('\n'); end !== -1; end = this.buffer.indexOf('\n')) {
      const line = this.buffer.toString('utf8', 0, end).replace(/\r$/, '');
      this.buffer = this.buffer.subarray(end + 1);
      this.receive(line);
    }
    if (this.buffer.length > MAX_LINE_BYTES) {
      this.buffer = Buffer.alloc(0);
      this.reply(null, ErrorCode.ParseError, `Parse error: a line longer than ${MAX_LINE_BYTES} bytes was dropped`);
    }
  };

  private readonly onStreamError = (error: Error) => this.onerror?.(error);

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
  }

  /** One line from the client: a message for the server, or an error answered here. */
  private receive(line: string): void {
    if (line.trim() === '') return; // a blank line between messages carries nothing to answer
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      this.reply(null, ErrorCode.ParseError, 'Parse error: the line is not JSON (one JSON-RPC message per line)');
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(raw);
    if (!parsed.success) {
      this.reply(idOf(raw), ErrorCode.InvalidRequest, 'Invalid Request: not a JSON-RPC 2.0 message');
      return;
    }
    const message = parsed.data;
    if (isJSONRPCRequest(message) && !this.initialized) {
      if (!BEFORE_INITIALIZE.has(message.method)) {
        this.reply(message.id, NOT_INITIALIZED, `Server not initialized: send initialize before ${message.method}`);
        return;
      }
      if (message.method === 'initialize') this.initializeId = message.id;
    }
    this.onmessage?.(message);
  }

  private reply(id: RequestId | null, code: number, message: string): void {
    // JSON-RPC 2.0: the id is null when it could not be read from the request.
    this.write({ jsonrpc: '2.0', id, error: { code, message } }).catch((error: unknown) =>
      this.onerror?.(error instanceof Error ? error : new Error(String(error))),
    );
  }

  async send(message: JSONRPCMessage): Promise<void> {
    // The session is initialised once the server has answered `initialize` with a result (not an error).
    if (!this.initialized && isJSONRPCResultResponse(message) && message.id === this.initializeId) {
      this.initialized = true;
    }
    await this.write(message);
  }

  private write(message: unknown): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.buffer = Buffer.alloc(0);
    this.onclose?.();
  }
}

/** The id of a JSON value that is not a valid message, when it has a usable one. */
function idOf(raw: unknown): RequestId | null {
  const id = (raw as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
