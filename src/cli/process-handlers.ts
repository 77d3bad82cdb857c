import { runAbortHandlers } from '../core/abort-handlers.js';
import { ExitCode, errorMessage } from '../core/errors.js';
import { killAllChildren } from '../core/process.js';

function onSignal(signal: NodeJS.Signals): void {
  // Children run in their own process groups, so a Ctrl-C to us does not reach them unless we pass it on.
  killAllChildren();
  runAbortHandlers(signal);
  process.exit(signal === 'SIGINT' ? 130 : 143);
}

const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Signals end the run's children and abort handlers first, then exit 130 or 143. Returns the way to take them off
 * again: the stop hook's small bundle does before it hands a stop to the whole CLI, which installs its own.
 */
export function installSignalHandlers(): () => void {
  for (const signal of SIGNALS) process.on(signal, onSignal);
  return () => {
    for (const signal of SIGNALS) process.off(signal, onSignal);
  };
}

/**
 * A reader that closed early (`tollgate scan --all | head`) is not an error: stop writing and keep the exit code.
 * Anything else that breaks stdout or stderr is one line on whichever stream still works.
 */
export function installStreamErrorHandlers(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? ExitCode.passed);
      try {
        process.stderr.write(`tollgate: cannot write output: ${errorMessage(error)}\n`);
      } catch {
        // stderr is gone too: nothing left to tell
      }
      process.exit(ExitCode.internal);
    });
  }
}
