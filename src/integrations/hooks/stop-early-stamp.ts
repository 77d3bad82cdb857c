import type { Stamp } from '../../core/run/tree-stamp.js';
import { type StartedStopStamp, startStopStamp } from './stop-stamp-start.js';

export { type StartedStopStamp, startStopStamp, stopStampOptions } from './stop-stamp-start.js';

/** A stamp started before the payload was read, for the folder the hook was started in (`startEarlyStamp`). */
export interface EarlyStamp {
  cwd: string;
  stamp: Promise<Stamp | null>;
}

/**
 * The stop's stamp of the folder the hook was started in, from git started early (`started`) or started now, so git
 * works while the hook loads the rest of its answer and reads its payload. Agents run the hook in the folder their
 * payload names; when the payload names another, the stamp is taken again there (`fastStopAnswer`). The stamp's
 * hashing (tree-stamp.ts) is loaded once git runs. Undefined when there is no current folder; never rejects.
 */
export function startEarlyStamp(
  env: NodeJS.ProcessEnv,
  version: string,
  started: StartedStopStamp | undefined = startStopStamp(env, version),
): EarlyStamp | undefined {
  if (!started) return undefined;
  const stamp = import('../../core/run/tree-stamp.js')
    .then(({ finishStamp }) => finishStamp(started.started))
    .catch(() => null);
  return { cwd: started.cwd, stamp };
}
