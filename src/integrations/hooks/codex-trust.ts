import { spawn } from 'node:child_process';

/** One hook as `codex app-server` lists it. */
export interface CodexHookListing {
  key: string;
  currentHash: string;
  trustStatus: string;
}

export type CodexHookList =
  | { kind: 'ok'; hooks: CodexHookListing[] }
  | { kind: 'missing' }
  | { kind: 'failed'; message: string };

/**
 * How long to wait for `codex app-server` to list the hooks: on a busy machine it takes well over 15 s (measured),
 * and giving up early leaves the hook untrusted, which Codex then skips without a word.
 */
export const CODEX_LIST_TIMEOUT_MS = 5 * 60_000;
/** How often a caller hears that we are still waiting. */
const PROGRESS_EVERY_MS = 15_000;

/**
 * Asks Codex which hooks it sees and their current hashes: `codex app-server` over JSON-RPC on stdio, `initialize`,
 * `initialized`, then `hooks/list` with the project as cwd (run end to end against
 * 0.169). Codex computes the hash; we never guess it.
 *
 * Spawned here rather than through `core/process.ts`: this is a conversation, and `runProcess` closes stdin after
 * its input, which may end the server before it answers.
 */
export function listCodexHooks(options: {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** Called every 15 s while codex has not answered, with the time waited so far. */
  onWaiting?: (elapsedMs: number, limitMs: number) => void;
}): Promise<CodexHookList> {
  const limitMs = options.timeoutMs ?? CODEX_LIST_TIMEOUT_MS;
  const started = Date.now();
  return new Promise((resolve) => {
    let settled = false;
    const progress = setInterval(() => options.onWaiting?.(Date.now() - started, limitMs), PROGRESS_EVERY_MS);
    const child = spawn('codex', ['app-server'], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const finish = (outcome: CodexHookList) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(progress);
      child.stdin.end();
      child.kill('SIGTERM');
      resolve(outcome);
    };
    const timer = setTimeout(
      () =>
        finish({
          kind: 'failed',
          message: `codex app-server did not answer hooks/list within ${Math.round(limitMs / 1000)} s`,
        }),
      limitMs,
    );
    child.on('error', (error: NodeJS.ErrnoException) =>
      finish(error.code === 'ENOENT' ? { kind: 'missing' } : { kind: 'failed', message: error.message }),
    );
    child.on('close', (code) =>
      finish({ kind: 'failed', message: `codex app-server exited (${code}) before answering` }),
    );
    const send = (message: Record<string, unknown>) => child.stdin.write(`${JSON.stringify(message)}\n`);
    onLines(child.stdout, (line) => {
      let message: { id?: unknown; result?: unknown; error?: { message?: string } };
      try {
        message = JSON.parse(line);
      } catch {
        return;
      }
      if (message.id === 1) {
        send({ method: 'initialized' });
        send({ id: 2, method: 'hooks/list', params: { cwds: [options.cwd] } });
      } else if (message.id === 2) {
        if (message.error) finish({ kind: 'failed', message: `hooks/list: ${message.error.message ?? 'error'}` });
        else finish({ kind: 'ok', hooks: collectHooks(message.result) });
      }
    });
    send({ id: 1, method: 'initialize', params: { clientInfo: { name: 'tollgate', version: '1' } } });
  });
}

/** Every `{key, currentHash}` object anywhere in the answer (its nesting is Codex's business). */
function collectHooks(value: unknown, found: CodexHookListing[] = []): CodexHookListing[] {
  if (Array.isArray(value)) for (const item of value) collectHooks(item, found);
  else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    if (typeof record.key === 'string' && typeof record.currentHash === 'string') {
      found.push({
        key: record.key,
        currentHash: record.currentHash,
        trustStatus: typeof record.trustStatus === 'string' ? record.trustStatus : 'unknown',
      });
    }
    for (const child of Object.values(record)) collectHooks(child, found);
  }
  return found;
}

/**
 * Calls `onLine` with each line of a stream. Not node:readline: this module is in the agents' table, which the stop
 * hook's small bundle loads, and readline would cost every stop its start-up for nothing.
 */
function onLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop()!;
    for (const line of lines) onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
  });
  stream.on('end', () => {
    if (pending !== '') onLine(pending);
  });
}
