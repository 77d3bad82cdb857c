import type { EventLog } from './writer.js';

/**
 * Tool calls that started and have not completed, so that a run ended by a signal can close each with an unsuccessful
 * `tool.execution_complete`: readers of the log (replay, metrics, `stats`) then see a durable end for every call,
 * rather than calls that seem to run forever.
 */
export interface OpenCallTracker {
  /** Emits the failed completion of every open call, naming the signal; then stops tracking. Returns their tools. */
  interrupt(signal: NodeJS.Signals): string[];
  /** Stops tracking (the run ended normally). */
  stop(): void;
}

export function trackOpenCalls(events: EventLog): OpenCallTracker {
  const open = new Map<string, { toolName: string; started: number }>();
  const unsubscribe = events.onEvent((event) => {
    if (event.type === 'tool.execution_start') {
      open.set(event.data.toolCallId, { toolName: event.data.toolName, started: Date.now() });
    } else if (event.type === 'tool.execution_complete') {
      open.delete(event.data.toolCallId);
    }
  });
  return {
    interrupt(signal) {
      unsubscribe();
      const tools = [...open.values()].map((call) => call.toolName);
      for (const [toolCallId, call] of open) {
        events.emit('tool.execution_complete', {
          toolCallId,
          toolName: call.toolName,
          success: false,
          durationMs: Date.now() - call.started,
          error: { message: `interrupted by ${signal}`, code: 'interrupted' },
        });
      }
      open.clear();
      return tools;
    },
    stop() {
      unsubscribe();
      open.clear();
    },
  };
}
