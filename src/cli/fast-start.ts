import { startRunStamp } from '../core/run/unchanged-run-start.js';
import { TOLLGATE_VERSION } from '../core/version.js';
import { startStopStamp } from '../integrations/hooks/stop-stamp-start.js';

/**
 * The entry of the smallest bundle (dist/bundle/cli/fast-start.cjs), which bin/tollgate.cjs loads before a fast
 * path's own bundle: it starts that fast path's stamp's git and returns it, to be handed to the fast path's entry.
 * It holds only what starting git needs, so git starts before Node reads the code cache and loads the rest.
 * Undefined for any other command line, and whenever there is nothing to start.
 */
export function startFastPath(argv: readonly string[]): unknown {
  if (argv[2] === 'hook' && argv[3] === 'stop') return startStopStamp(process.env, TOLLGATE_VERSION);
  if (argv.length === 3 && argv[2] === 'run') return startRunStamp();
  return undefined;
}
