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
  installExitHook();
  const dir = mkdtempSync(join(tmpdir(), prefix));
  live.add(dir);
  try {
    return await work(dir);
  } finally {
    live.delete(dir);
    rmSync(dir, { recursive: true, force: true });
  }
}
