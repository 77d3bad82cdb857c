import { ExitCode, errorMessage } from '../core/errors.js';
import { installSignalHandlers, installStreamErrorHandlers } from './process-handlers.js';
import { exitIfUnfinished } from './unfinished-guard.js';

/**
 * One command's process, as bin/tollgate.cjs starts it from a bundle (the whole CLI's start.ts, the scan's
 * scan-start.ts): signals and broken pipes handled, the command's exit code in `process.exitCode`, and an exit before
 * the command settled reported as the internal error it is.
 */
export function runCommandProcess(argv: readonly string[], command: () => Promise<number>): void {
  installSignalHandlers();
  installStreamErrorHandlers();
  const unfinished = exitIfUnfinished(argv);
  command().then(
    (code) => {
      unfinished.settled();
      process.exitCode = code;
    },
    (error: unknown) => {
      unfinished.settled();
      process.stderr.write(`tollgate: internal error: ${errorMessage(error)}\n`);
      process.exitCode = ExitCode.internal;
    },
  );
}
