import { ExitCode, errorMessage } from '../core/errors.js';
import { installSignalHandlers, installStreamErrorHandlers } from './process-handlers.js';
import { type CliHandoff, handPlainRun } from './run-handoff.js';

async function start(argv: readonly string[], handoff: CliHandoff): Promise<number> {
  // Agents run the stop hook after every turn; loading every command (commander, zod, all flags) would cost more
  // than the hook's whole decision, so a plain `hook stop` goes straight to its entry point.
  // Every other command skips even the hook agents' table (their install code reads JSON, TOML, child processes).
  if (argv[2] === 'hook' && argv[3] === 'stop') {
    const { stopHookAgentFromArgv } = await import('./fast-path.js');
    const stop = stopHookAgentFromArgv(argv.slice(2));
    if (stop) {
      const { stopHookMain } = await import('../integrations/hooks/stop-entry.js');
      return stopHookMain(stop.agent, handoff);
    }
  }
  handPlainRun(handoff.run);
  const { main } = await import('./main.js');
  return main(argv);
}

/**
 * The whole CLI: one command from `argv`, its exit code in `process.exitCode`. `handoff` carries what a small bundle
 * (the stop hook's, the no-change run's) already learnt when it could not answer alone (bin/tollgate.cjs).
 */
export function runCli(argv: readonly string[], handoff: CliHandoff = {}): void {
  installSignalHandlers();
  installStreamErrorHandlers();
  const unfinished = exitIfUnfinished(argv);
  start(argv, handoff).then(
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

/**
 * Node exits with code 0 once nothing is left to wait for, even while a command's promise is still pending (work that
 * waits for something no one will ever do, as a scheduler deadlock would): a `run` would then pass having written no
 * report. The exit code comes only from a command that finished; one that did not is an internal error.
 */
function exitIfUnfinished(argv: readonly string[]): { settled: () => void } {
  const command = argv.slice(2).find((arg) => !arg.startsWith('-')) ?? '';
  const onBeforeExit = () => {
    process.off('beforeExit', onBeforeExit);
    process.stderr.write(
      `tollgate: internal error: \`tollgate ${command}\` stopped before it finished (it was left waiting for work that never ended), so it decided nothing; nothing it printed is a result\n`,
    );
    process.exitCode = ExitCode.internal;
  };
  process.on('beforeExit', onBeforeExit);
  return { settled: () => process.off('beforeExit', onBeforeExit) };
}
