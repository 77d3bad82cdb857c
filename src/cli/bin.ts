#!/usr/bin/env node
import { runAbortHandlers } from '../core/abort-handlers.js';
import { ExitCode, errorMessage } from '../core/errors.js';
import { killAllChildren } from '../core/process.js';
import { stopHookAgentFromArgv } from './fast-path.js';

function onSignal(signal: NodeJS.Signals): void {
  // Children run in their own process groups, so a Ctrl-C to us does not reach them unless we pass it on.
  killAllChildren();
  runAbortHandlers(signal);
  process.exit(signal === 'SIGINT' ? 130 : 143);
}
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);
process.on('SIGHUP', onSignal);

// A reader that closed early (`tollgate scan --all | head`) is not an error: stop writing and keep the exit code.
// Anything else that breaks stdout or stderr is one line on whichever stream still works.
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

async function start(argv: readonly string[]): Promise<number> {
  // Agents run the stop hook after every turn; loading every command (commander, zod, all flags) would cost more
  // than the hook's whole decision, so a plain `hook stop` goes straight to its entry point.
  const stop = stopHookAgentFromArgv(argv.slice(2));
  if (stop) {
    const { stopHookMain } = await import('../integrations/hooks/stop-entry.js');
    return stopHookMain(stop.agent);
  }
  const { main } = await import('./main.js');
  return main(argv);
}

start(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`tollgate: internal error: ${errorMessage(error)}\n`);
    process.exitCode = ExitCode.internal;
  },
);
