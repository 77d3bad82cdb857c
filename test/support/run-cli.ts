import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ProcessResult, runProcess } from '../../src/core/process.js';
import { timeBudget } from './time-budget.js';

/**
 * The built CLI as users get it (the bundle `bin` points at). `npm test` bundles first; a test run without a build says
 * so instead of failing obscurely.
 */
export const CLI_PATH = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'tollgate.cjs');

export function assertBuilt(): void {
  if (!existsSync(CLI_PATH)) {
    throw new Error(
      `${CLI_PATH} is missing: run \`npm run build\` or \`node scripts/bundle.mjs\` (npm test does) first`,
    );
  }
}

/** Runs the built `tollgate` as a real child process, with the test's private env, no TTY and no stdin. */
export function runCli(
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; input?: string; timeoutMs?: number },
): Promise<ProcessResult> {
  assertBuilt();
  return runProcess(process.execPath, [CLI_PATH, ...args], {
    cwd: options.cwd,
    env: { ...options.env, TOLLGATE_DEBUG: '' },
    // Scaled by the load: a CLI run on a busy machine is slow, not hung (docs/testing.md).
    timeoutMs: options.timeoutMs ?? timeBudget(60_000),
    ...(options.input !== undefined ? { input: options.input } : {}),
  });
}
