import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { formatDuration } from '../../core/config/units.js';

/** What the SDK hands a tool handler besides its arguments: the abort signal, the progress token, notifications. */
export type McpCallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface ProgressReporter {
  send: (source: string, message: string) => void;
  /** Repeats which validators are still running (`running()` is asked each time) until the returned stop is called. */
  heartbeat: (intervalMs: number, running: () => readonly string[]) => () => void;
  flush: () => Promise<void>;
}

/**
 * Progress notifications, only when the client sent a progress token; `progress` increases with every message.
 * Sends are chained so they arrive in order, and failures are dropped (progress is advisory). While validators run, a
 * heartbeat repeats which are still running and for how long, so a client that resets its timeout on progress does not
 * give up on a slow but healthy validator.
 */
export function progressReporter(extra: McpCallExtra): ProgressReporter {
  const token = extra._meta?.progressToken;
  let chain: Promise<void> = Promise.resolve();
  let progress = 0;
  const send = (source: string, message: string) => {
    if (token === undefined || extra.signal.aborted) return;
    progress += 1;
    const params = { progressToken: token, progress, message: `${source}: ${message}` };
    chain = chain.then(() => extra.sendNotification({ method: 'notifications/progress', params })).catch(() => {});
  };
  return {
    send,
    heartbeat: (intervalMs, running) => {
      if (token === undefined) return () => {};
      const started = Date.now();
      const timer = setInterval(() => {
        const names = running();
        const elapsed = `(${formatDuration(Date.now() - started)} elapsed)`;
        send(
          'tollgate',
          names.length > 0
            ? `still running ${names.join(', ')} ${elapsed}`
            : `every validator is done; storing the results ${elapsed}`,
        );
      }, intervalMs);
      return () => clearInterval(timer);
    },
    flush: () => chain,
  };
}
