import { TOLLGATE_VERSION } from '../../core/version.js';
import type { HookAgentName } from './index.js';
import type { StdinRead } from './read-stdin.js';
import { runStopHook } from './stop.js';

/** What the stop hook's small bundle learnt before handing a stop to the full CLI (bin/tollgate.cjs). */
export interface StopHandoff {
  /** The payload it already read: stdin cannot be read twice. */
  read?: StdinRead;
  /** What is left of the hook's deadline after the time it spent. */
  deadlineMs?: number;
}

/**
 * `tollgate hook stop` without the rest of the CLI: for a fast dispatch in `bin.ts` (loading every command's module
 * costs more than the hook's whole fast path). Prints the reply and resolves to the exit code, always 0.
 */
export async function stopHookMain(agent?: HookAgentName, handoff: StopHandoff = {}): Promise<number> {
  const answer = await runStopHook({
    version: TOLLGATE_VERSION,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    ...(agent ? { agent } : {}),
    ...(handoff.read ? { read: handoff.read } : {}),
    ...(handoff.deadlineMs !== undefined ? { deadlineMs: handoff.deadlineMs } : {}),
  });
  process.stdout.write(answer.stdout);
  return 0;
}
