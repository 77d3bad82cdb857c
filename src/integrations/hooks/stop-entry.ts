import { TOLLGATE_VERSION } from '../../core/version.js';
import type { HookAgentName } from './index.js';
import type { StdinRead } from './read-stdin.js';
import { runStopHook } from './stop.js';
import { processStartedAt } from './stop-deadline.js';

/** What the stop hook's small bundle learnt before handing a stop to the full CLI (bin/tollgate.cjs). */
export interface StopHandoff {
  /** The payload it already read: stdin cannot be read twice. */
  read?: StdinRead;
}

/**
 * `tollgate hook stop` without the rest of the CLI: for a fast dispatch in `bin.ts` (loading every command's module
 * costs more than the hook's whole fast path). Prints the reply and resolves to the exit code, always 0. The deadline
 * counts from the process start, the agent's clock, whatever the small bundle already spent.
 */
export async function stopHookMain(agent?: HookAgentName, handoff: StopHandoff = {}): Promise<number> {
  const answer = await runStopHook({
    version: TOLLGATE_VERSION,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    startedAt: processStartedAt(),
    ...(agent ? { agent } : {}),
    ...(handoff.read ? { read: handoff.read } : {}),
  });
  if (answer.pending) {
    // The work still under way (a slow git, a run) is abandoned: the agent waits for this process to end, and its
    // own timeout would turn a late exit into a failed hook, which lets the stop through.
    process.stdout.write(answer.stdout, () => process.exit(0));
    return 0;
  }
  process.stdout.write(answer.stdout);
  return 0;
}
