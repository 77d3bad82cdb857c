import { traceFastPath } from '../core/run/fast-path-trace.js';
import { TOLLGATE_VERSION } from '../core/version.js';
import type { HookAgentName } from '../integrations/hooks/index.js';
import { fallbackHookAgent, hookAgent } from '../integrations/hooks/index.js';
import { readStdin, type StdinRead } from '../integrations/hooks/read-stdin.js';
import { readStdinNow } from '../integrations/hooks/read-stdin-now.js';
import {
  agentHookTimeout,
  fastPathHandoffAt,
  processStartedAt,
  stopDeadlineAt,
} from '../integrations/hooks/stop-deadline.js';
import type { StopHandoff } from '../integrations/hooks/stop-entry.js';
import { type EarlyStamp, fastStopAnswer } from '../integrations/hooks/stop-fast-answer.js';
import { writeAnswer } from './answer-output.js';
import { stopHookAgentFromArgv } from './fast-path.js';
import { installSignalHandlers } from './process-handlers.js';
import { exitIfUnfinished } from './unfinished-guard.js';

/**
 * The stop hook's small bundle once its stamp's git is started (stop-hook-fast.ts): resolves to null once it answered
 * (stdout written, exit code 0: the process may exit at once), or to what the full CLI needs to decide instead (bin/tollgate.cjs then loads it): any
 * case but the fast path's plain allow, any error of its own, and a fast path still waiting (for a slow git) halfway
 * to the hook's deadline, which the full path then keeps.
 */
export async function answerStopHook(
  argv: readonly string[],
  early: EarlyStamp | undefined,
): Promise<StopHandoff | null> {
  const stop = stopHookAgentFromArgv(argv.slice(2));
  if (!stop) return {};
  const unfinished = exitIfUnfinished(argv);
  const removeSignalHandlers = installSignalHandlers();
  let read: StdinRead | undefined;
  const handoff = (why: string): StopHandoff => {
    traceFastPath(process.env, `handed to the full stop hook: ${why}`);
    removeSignalHandlers();
    unfinished.settled();
    return read ? { read } : {};
  };
  try {
    // A file, a pipe or a socket is read here without starting the stream (readStdinNow); the rest through it.
    const now = readStdinNow();
    read = 'read' in now ? now.read : await readStdin(process.stdin, 5000, now.prefix);
  } catch {
    return handoff('stdin could not be read');
  }
  return answerStop(stop, read, early, handoff, unfinished.settled);
}

async function answerStop(
  stop: { agent: HookAgentName | undefined },
  read: StdinRead,
  early: EarlyStamp | undefined,
  handoff: (why: string) => StopHandoff,
  settled: () => void,
): Promise<StopHandoff | null> {
  const startedAt = processStartedAt();
  const agent = stop.agent ? hookAgent(stop.agent) : fallbackHookAgent;
  const deadlineAt = stopDeadlineAt(startedAt, agentHookTimeout(process.env, agent.hookTimeoutMs).ms);
  const slow = slowAfterThisTurn(fastPathHandoffAt(startedAt, deadlineAt));
  try {
    const answer = await Promise.race([
      fastStopAnswer({
        version: TOLLGATE_VERSION,
        // Never read here (the payload is `read`): a getter, since making `process.stdin` loads `net`.
        get stdin() {
          return process.stdin;
        },
        env: process.env,
        cwd: process.cwd(),
        read,
        ...(early ? { early } : {}),
        ...(stop.agent ? { agent: stop.agent } : {}),
      }),
      slow.promise,
    ]);
    if (!answer) return handoff('no saved answer it can give here');
    if (answer === 'slow') return handoff('git was slow, halfway to the deadline');
    process.exitCode = 0;
    await writeAnswer(answer.stdout);
    traceFastPath(process.env, 'answered from the saved stamp');
    settled();
    return null;
  } catch {
    return handoff('an error of its own'); // the full path decides, and reports whatever went wrong
  } finally {
    slow.cancel();
  }
}

/**
 * `promise` resolves to 'slow' at `handoffAt` (ms since the epoch), unless `cancel` came first. Only an answer that
 * waits on something outside this process (git) can take that long; one answered from the saved evidence settles
 * within the current turn, so the timer is armed only if the answer is still pending once this turn's promise
 * callbacks have run (`setImmediate` runs after them). A stop that never arms it spares Node's timers their first
 * use, 0.2-0.3 ms of CPU (docs/benchmarks.md "The fast paths' answers"). The time is absolute: a timer armed one turn
 * later fires at the same moment.
 */
function slowAfterThisTurn(handoffAt: number): { promise: Promise<'slow'>; cancel: () => void } {
  let immediate: NodeJS.Immediate | undefined;
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<'slow'>((resolve) => {
    immediate = setImmediate(() => {
      timer = setTimeout(() => resolve('slow'), Math.max(0, handoffAt - Date.now()));
    });
  });
  return {
    promise,
    cancel() {
      clearImmediate(immediate);
      clearTimeout(timer);
    },
  };
}
