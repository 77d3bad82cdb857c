import { sessionPath } from '../../core/run/session-path.js';
import { renewStampEvidence } from '../../core/run/stamp-evidence-record.js';
import { detectAgent, hookAgent } from './index.js';
import { parsePayload, type StdinRead } from './read-stdin.js';
import { answerWith, REVIEWER_FLAG, type StopHookAnswer, type StopHookOptions } from './stop-context.js';
import type { EarlyStamp } from './stop-early-stamp.js';
import { blocksSoFar, findStopCache, readStopFiles, stopStampOf, validatedByStamp } from './stop-fast-path.js';
import { environmentWarnings, payloadCwdWarning } from './stop-warnings.js';

export { type EarlyStamp, startEarlyStamp } from './stop-early-stamp.js';

/**
 * The answer `runStopHook` gives when its fast path allows the stop with nothing to warn about, or null for every
 * other case (the caller then runs `runStopHook` with the same `read`). It takes exactly the fast path's checks: the
 * signed stamp and verdict, the block counter, and no warning from the environment or the payload's `cwd`; it spawns
 * the same git processes (tree-stamp.ts; `early`: already started, for the folder the payload names) and loads nothing else, so a small bundle of it answers most stops (bin/tollgate.cjs).
 */
export async function fastStopAnswer(
  options: StopHookOptions & { read: StdinRead; early?: EarlyStamp },
): Promise<StopHookAnswer | null> {
  const { env, read } = options;
  if (env[REVIEWER_FLAG] === '1' || environmentWarnings(env).length > 0) return null;
  const parsed = read.kind === 'tty' ? parsePayload('') : parsePayload(read.text);
  if (!parsed.ok) return null;
  const agent = options.agent ? hookAgent(options.agent) : detectAgent(parsed.payload);
  const payload = agent.readPayload(parsed.payload);
  const cwd = payload.cwd ?? options.cwd;
  // The saved stamp and the state are read while git takes the stamp.
  const root = findStopCache(cwd);
  const early = options.early?.cwd === cwd ? options.early.stamp : null;
  const [stamp, files] = await Promise.all([
    early ?? stopStampOf(cwd, env, options.version ?? 'dev'),
    root === null ? null : readStopFiles(root),
  ]);
  if (!stamp) return null;
  const outside = await payloadCwdWarning({
    payloadCwd: payload.cwd,
    hookCwd: options.cwd,
    checkedRoot: stamp.repoRoot,
    env,
  });
  if (outside) return null;
  const counterKey = stopCounterKey(agent.name, payload.sessionId);
  const [validated, blocks] = await Promise.all([
    validatedByStamp(stamp, files),
    blocksSoFar(sessionPath(stamp.repoRoot, counterKey)),
  ]);
  if (!validated || blocks !== 0) return null;
  // git's own answer matched the saved stamp: the next stop may again answer without git.
  await renewStampEvidence(stamp);
  return answerWith(agent, agent.allow(), 'allow');
}

/** The session file counting this agent session's consecutive blocks (the loop guard). */
export function stopCounterKey(agentName: string, sessionId: string | null | undefined): string {
  return `stop-${agentName}-${sessionId ?? 'unknown'}`;
}
