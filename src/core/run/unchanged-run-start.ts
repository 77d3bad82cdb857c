import { join } from 'node:path';
import { TOLLGATE_DIR } from '../state/tollgate-dir-name.js';
import { TOLLGATE_VERSION } from '../version.js';
import { findSaved, type StampOptions, type StartedStamp, startStamp } from './stamp-start.js';

/**
 * What the repeat run's fast path needs before it starts its stamp's git (unchanged-run.ts has the rest): where the
 * saved report is and how a plain run's stamp is taken. Nothing here loads hashing or the signed state.
 */
export const UNCHANGED_RUN_FILE = 'run-cache.json';

/** How a plain run's stamp is taken: the same before a run, after it, and by the fast path. */
export function plainRunStampOptions(cwd: string, env: NodeJS.ProcessEnv): StampOptions {
  return { cwd, env, version: TOLLGATE_VERSION, purpose: 'run', refs: true };
}

/** The work tree root where an earlier plain run left a report to repeat; null when none did (`findSaved`). */
export function findUnchangedRun(cwd: string): string | null {
  return findSaved(cwd, join(TOLLGATE_DIR, UNCHANGED_RUN_FILE));
}

/** Where the saved report is, and its stamp's git, started. */
export interface SavedRunStart {
  repoRoot: string;
  started: StartedStamp;
}

/**
 * `saved`: where the saved report is, with its stamp's git started; null when no run left one (none yet, or the
 * last run failed: no stamp is worth taking); undefined after an error of its own.
 */
export interface RunStampStart {
  saved: SavedRunStart | null | undefined;
}

/** Starts the repeat run's stamp in the current folder when a saved report is there to compare it with. */
export function startRunStamp(): RunStampStart {
  try {
    const cwd = process.cwd();
    const repoRoot = findUnchangedRun(cwd);
    return {
      saved: repoRoot === null ? null : { repoRoot, started: startStamp(plainRunStampOptions(cwd, process.env)) },
    };
  } catch {
    return { saved: undefined };
  }
}
