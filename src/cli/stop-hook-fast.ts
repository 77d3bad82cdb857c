import { TOLLGATE_VERSION } from '../core/version.js';
import { readStdin } from '../integrations/hooks/read-stdin.js';
import type { StopHandoff } from '../integrations/hooks/stop-entry.js';
import { fastStopAnswer } from '../integrations/hooks/stop-fast-answer.js';
import { stopHookAgentFromArgv } from './fast-path.js';
import { installSignalHandlers, installStreamErrorHandlers } from './process-handlers.js';

/** The stop hook's deadline (runStopHook's default): the full path gets what the fast one left of it. */
const DEADLINE_MS = 20_000;

/**
 * The entry of the stop hook's own small bundle (dist/bundle/cli/stop-hook.cjs): agents run `tollgate hook stop`
 * after every turn, and on an unchanged, validated tree the answer needs a few small modules, not the whole CLI.
 * Resolves to null once it answered (stdout written, exit code 0), or to what the full CLI needs to decide instead
 * (bin/tollgate.cjs then loads it): any case but the fast path's plain allow, and any error of its own.
 */
export async function stopHookFast(argv: readonly string[]): Promise<StopHandoff | null> {
  const stop = stopHookAgentFromArgv(argv.slice(2));
  if (!stop) return {};
  const removeSignalHandlers = installSignalHandlers();
  const read = await readStdin(process.stdin, 5000);
  const started = Date.now();
  const handoff = (): StopHandoff => {
    removeSignalHandlers();
    return { read, deadlineMs: Math.max(1000, DEADLINE_MS - (Date.now() - started)) };
  };
  try {
    const answer = await fastStopAnswer({
      version: TOLLGATE_VERSION,
      stdin: process.stdin,
      env: process.env,
      cwd: process.cwd(),
      read,
      ...(stop.agent ? { agent: stop.agent } : {}),
    });
    if (!answer) return handoff();
    installStreamErrorHandlers();
    process.stdout.write(answer.stdout);
    process.exitCode = 0;
    return null;
  } catch {
    return handoff(); // the full path decides, and reports whatever went wrong
  }
}
