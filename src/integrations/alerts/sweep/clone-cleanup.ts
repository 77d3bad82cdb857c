import { type Dirent, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { killAllChildren } from '../../../core/process.js';

/**
 * Full-history clones of private repositories are the one thing a sweep must never leave in `--out`: the reusable
 * workflow uploads `--out` as an artifact, even after a failure. They go when an alert is decided, when it fails,
 * and when the sweep is stopped (SIGINT/SIGTERM end in `process.exit`, where `finally` blocks never run, so an
 * `exit` listener removes the clones of the alerts still in flight, once their gits are stopped).
 */
const inFlight = new Set<string>();
let exitHookInstalled = false;

/** `_shared_repo/` and each analysis's `repo/` under an alert folder; reports, scripts and logs stay as evidence. */
export function dropClones(dir: string): void {
  removeTree(join(dir, '_shared_repo'));
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return; // Nothing was written for this alert.
  }
  for (const entry of entries) {
    if (entry.isDirectory()) removeTree(join(dir, entry.name, 'repo'));
  }
}

/** Retried: a git that was killed a moment ago may still have had a file in flight (ENOTEMPTY on the folder). */
function removeTree(path: string): void {
  rmSync(path, { recursive: true, force: true, maxRetries: 3, retryDelay: 20 });
}

/** Runs `work` for the alert folder `dir` and removes its clones afterwards, whatever happens, signals included. */
export async function withCloneCleanup<T>(dir: string, work: () => Promise<T>): Promise<T> {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      // An exit that no signal handler saw first (a closed stdout, an internal error) leaves git running: stop it
      // before its clone is removed, or it would go on writing into it.
      if (inFlight.size > 0) killAllChildren();
      for (const pending of inFlight) {
        try {
          dropClones(pending);
        } catch {
          // The process is exiting: one folder that cannot be removed must not keep the others.
        }
      }
    });
  }
  inFlight.add(dir);
  try {
    return await work();
  } finally {
    inFlight.delete(dir);
    dropClones(dir);
  }
}
