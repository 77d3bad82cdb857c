import { startEarlyStage } from '../core/change-set/early-stage.js';
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

/**
 * For any `tollgate run` but a plain one (whose small bundle may answer without a snapshot): the snapshot's `git add`
 * (early-stage.ts), begun before bin/tollgate.cjs loads the whole CLI, which hands it to the run. Undefined for
 * `--help`, outside a repository, and on any error (the run then starts its own).
 */
export function startRunSnapshot(argv: readonly string[]): unknown {
  if (argv[2] !== 'run' || argv.length === 3) return undefined;
  if (argv.slice(3).some((arg) => arg === '--help' || arg === '-h' || arg === '--')) return undefined;
  return startEarlyStage(process.cwd());
}
