/**
 * What must still happen, synchronously, when tollgate is interrupted (SIGINT, SIGTERM, SIGHUP) and exits at once:
 * a run in progress records that it was aborted, so its log says so rather than merely stopping. Handlers must be
 * quick and must not throw; the signal handler in `cli/process-handlers.ts` runs them before it exits.
 */
type AbortHandler = (signal: NodeJS.Signals) => void;

const handlers = new Set<AbortHandler>();

/** Registers a handler; returns the function that removes it (call it when the work it guards is done). */
export function onAbort(handler: AbortHandler): () => void {
  handlers.add(handler);
  return () => handlers.delete(handler);
}

export function runAbortHandlers(signal: NodeJS.Signals): void {
  for (const handler of [...handlers]) {
    try {
      handler(signal);
    } catch {
      // The process is exiting: one failed handler must not keep the others from running.
    }
  }
  handlers.clear();
}
