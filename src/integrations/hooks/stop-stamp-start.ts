import { type StampOptions, type StartedStamp, startStamp } from '../../core/run/stamp-start.js';

/** The stop's stamp with its git started, not yet hashed (`startStopStamp`). */
export interface StartedStopStamp {
  cwd: string;
  started: StartedStamp;
}

/** How the stop hook's stamp is taken, early or not. */
export function stopStampOptions(cwd: string, env: NodeJS.ProcessEnv, version: string): StampOptions {
  return { cwd, env, version, purpose: 'stop', refs: true };
}

/**
 * Starts the git of the stop's stamp of the folder the hook was started in, loading nothing but what that needs (no
 * hashing, no signed state): bin/tollgate.cjs calls it through a bundle of its own before it loads the stop hook's,
 * so git works on the other core while Node loads the rest. Undefined when there is no current folder.
 */
export function startStopStamp(env: NodeJS.ProcessEnv, version: string): StartedStopStamp | undefined {
  try {
    const cwd = process.cwd();
    return { cwd, started: startStamp(stopStampOptions(cwd, env, version)) };
  } catch {
    return undefined;
  }
}
