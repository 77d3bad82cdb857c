import { TOLLGATE_VERSION } from '../core/version.js';
import { fallbackHookAgent, hookAgent } from '../integrations/hooks/index.js';
import { readStdin } from '../integrations/hooks/read-stdin.js';
import {
  agentHookTimeout,
  fastPathHandoffAt,
  processStartedAt,
  stopDeadlineAt,
} from '../integrations/hooks/stop-deadline.js';
import type { StopHandoff } from '../integrations/hooks/stop-entry.js';
import { fastStopAnswer } from '../integrations/hooks/stop-fast-answer.js';
import { stopHookAgentFromArgv } from './fast-path.js';
import { installSignalHandlers, installStreamErrorHandlers } from './process-handlers.js';

/**
 * The entry of the stop hook's own small bundle (dist/bundle/cli/stop-hook.cjs): agents run `tollgate hook stop`
 * after every turn, and on an unchanged, validated tree the answer needs a few small modules, not the whole CLI.
 * Resolves to null once it answered (stdout written, exit code 0), or to what the full CLI needs to decide instead
 * (bin/tollgate.cjs then loads it): any case but the fast path's plain allow, any error of its own, and a fast path
 * still waiting (for a slow git) halfway to the hook's deadline, which the full path then keeps.
 */
export async function stopHookFast(argv: readonly string[]): Promise<StopHandoff | null> {
  const stop = stopHookAgentFromArgv(argv.slice(2));
  if (!stop) return {};
  const removeSignalHandlers = installSignalHandlers();
  const read = await readStdin(process.stdin, 5000);
  const handoff = (): StopHandoff => {
    removeSignalHandlers();
    return { read };
  };
  const startedAt = processStartedAt();
  const agent = stop.agent ? hookAgent(stop.agent) : fallbackHookAgent;
  const deadlineAt = stopDeadlineAt(startedAt, agentHookTimeout(process.env, agent.hookTimeoutMs).ms);
  let timer: NodeJS.Timeout | undefined;
  const slow = new Promise<'slow'>((resolve) => {
    timer = setTimeout(() => resolve('slow'), Math.max(0, fastPathHandoffAt(startedAt, deadlineAt) - Date.now()));
  });
  try {
    const answer = await Promise.race([
      fastStopAnswer({
        version: TOLLGATE_VERSION,
        stdin: process.stdin,
        env: process.env,
        cwd: process.cwd(),
        read,
        ...(stop.agent ? { agent: stop.agent } : {}),
      }),
      slow,
    ]);
    if (!answer || answer === 'slow') return handoff();
    installStreamErrorHandlers();
    process.stdout.write(answer.stdout);
    process.exitCode = 0;
    return null;
  } catch {
    return handoff(); // the full path decides, and reports whatever went wrong
  } finally {
    clearTimeout(timer);
  }
}
