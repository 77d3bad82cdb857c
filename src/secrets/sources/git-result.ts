import { TollgateError } from '../../core/errors.js';
import type { ProcessResult } from '../../core/process.js';

/** A git call that could not start or failed, as one line naming what was asked (`what`). Aborted calls pass. */
export function checkGitResult(result: ProcessResult, what: string): void {
  if (result.spawnError)
    throw new TollgateError('not_a_repo', `cannot run git (${result.spawnError.code}); tollgate needs git on PATH`);
  if (result.aborted) return;
  if (result.exitCode !== 0) {
    const reason = result.stderr.trim().split('\n')[0] ?? `exit ${result.exitCode}`;
    throw new TollgateError('bad_revision', `${what}: ${reason}`);
  }
}
