import { TOLLGATE_VERSION } from '../core/version.js';
import { type StartedStopStamp, startEarlyStamp } from '../integrations/hooks/stop-early-stamp.js';
import type { StopHandoff } from '../integrations/hooks/stop-entry.js';

/**
 * The entry of the stop hook's own small bundle (dist/bundle/cli/stop-hook.cjs): agents run `tollgate hook stop`
 * after every turn, and on an unchanged, validated tree the answer needs a few small modules, not the whole CLI.
 * Its stamp's git is started first (by bin/tollgate.cjs through fast-start.cjs, `started`, or here), and only then is
 * the rest of the answer loaded (stop-hook-answer.ts: hashing, the signed state, the agents' payloads), so git works
 * on the other core while Node loads it. Resolves to null once it answered (stdout written, exit code 0), or to what
 * the full CLI needs to decide instead (bin/tollgate.cjs then loads it).
 */
export async function stopHookFast(argv: readonly string[], started?: StartedStopStamp): Promise<StopHandoff | null> {
  // Anything but `hook stop ...` is not this bundle's; the rest of the command line is checked with the rest.
  if (argv[2] !== 'hook' || argv[3] !== 'stop') return {};
  const early = startEarlyStamp(process.env, TOLLGATE_VERSION, started);
  let answer: typeof import('./stop-hook-answer.js');
  try {
    answer = await import('./stop-hook-answer.js');
  } catch {
    return {}; // the full CLI decides, and reports whatever went wrong
  }
  return answer.answerStopHook(argv, early);
}
