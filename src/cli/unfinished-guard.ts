import { ExitCode } from '../core/errors.js';

/**
 * Node exits with code 0 once nothing is left to wait for, even while a command's promise is still pending (work that
 * waits for something no one will ever do, as a scheduler deadlock or a child process whose end never comes): a `run`
 * would then pass having written no report. Until `settled` is called, such an exit is an internal error (exit 3) with
 * one line saying so. The whole CLI (start.ts) and each fast path's small bundle (run-fast.ts, stop-hook-fast.ts)
 * hold one.
 */
export function exitIfUnfinished(argv: readonly string[]): { settled: () => void } {
  const command = argv.slice(2).find((arg) => !arg.startsWith('-')) ?? '';
  const spelled = argv[2] === 'hook' && argv[3] === 'stop' ? 'hook stop' : command;
  const onBeforeExit = () => {
    process.off('beforeExit', onBeforeExit);
    process.stderr.write(
      `tollgate: internal error: \`tollgate ${spelled}\` stopped before it finished (it was left waiting for work that never ended), so it decided nothing; nothing it printed is a result\n`,
    );
    process.exitCode = ExitCode.internal;
  };
  process.on('beforeExit', onBeforeExit);
  return { settled: () => process.off('beforeExit', onBeforeExit) };
}
