import { runCommandProcess } from './command-process.js';
import { type CliHandoff, handCodeCacheComplete, handEarlyStage, handPlainRun } from './run-handoff.js';

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
  handEarlyStage(handoff.early);
  handCodeCacheComplete(handoff.codeCacheComplete);
  const { main } = await import('./main.js');
  return main(argv);
}

/**
 * The whole CLI: one command from `argv`, its exit code in `process.exitCode`. `handoff` carries what a small bundle
 * (the stop hook's, the no-change run's) already learnt when it could not answer alone (bin/tollgate.cjs).
 */
export function runCli(argv: readonly string[], handoff: CliHandoff = {}): void {
  runCommandProcess(argv, () => start(argv, handoff));
}
