import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Private temp folders still in use, so that an interrupted tollgate removes them on its way out. */
const live = new Set<string>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // 'exit' also fires after process.exit() from the SIGINT/SIGTERM handlers, where `finally` blocks never run.
  process.on('exit', () => {
    for (const dir of live) rmSync(dir, { recursive: true, force: true });
  });
}

/**
 * Runs `work` with a fresh private (0700) folder under the system temp dir (temporary indexes, prompt files) and
 * removes it afterwards: on success, on error, and when the process is stopped by a signal.
 */
export async function withPrivateTempDir<T>(prefix: string, work: (dir: string) => Promise<T>): Promise<T> {
  const folder = openPrivateTempDir(prefix);
  try {
    return await work(folder.dir);
  } finally {
    folder.remove();
  }
}

/** A private folder made now and removed by `remove` (or on the way out, like `withPrivateTempDir`'s). */
export interface PrivateTempDir {
  dir: string;
  remove(): void;
}

/**
 * A fresh private (0700) folder for work that starts before the code that finishes it is loaded (a snapshot's `git
 * add` begun before the CLI): the same folder `withPrivateTempDir` makes, removed by `remove` or when the process ends.
 */
export function openPrivateTempDir(prefix: string): PrivateTempDir {
  installExitHook();
  const dir = mkdtempSync(join(tmpdir(), prefix));
  live.add(dir);
  return {
    dir,
    remove: () => {
      live.delete(dir);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
