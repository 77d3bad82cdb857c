import { TOLLGATE_VERSION } from '../../core/version.js';
import type { HookAgentName } from './index.js';
import { runStopHook } from './stop.js';

/**
 * `tollgate hook stop` without the rest of the CLI: for a fast dispatch in `bin.ts` (loading every command's module
 * costs more than the hook's whole fast path). Prints the reply and resolves to the exit code, always 0.
 */
export async function stopHookMain(agent?: HookAgentName): Promise<number> {
  const answer = await runStopHook({
    version: TOLLGATE_VERSION,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    ...(agent ? { agent } : {}),
  });
  process.stdout.write(answer.stdout);
  return 0;
}
