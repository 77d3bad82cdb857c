import { whenHistoryReadingStarts } from '../secrets/sources/history/reading-starts.js';
import { runCommandProcess } from './command-process.js';
import { registerHookPreCommit, registerScan } from './commands/scan.js';
import { runProgram } from './program.js';

/** What bin/tollgate.cjs asks of a scan's process beyond its command line. */
export interface ScanProcessHooks {
  /** Called once, as a history scan's first `git log` pass is about to start (its start-up done). */
  historyReadingStarts?: () => void;
}

/**
 * The entry of the scan's own bundle (dist/bundle/cli/scan.cjs), which bin/tollgate.cjs loads for `tollgate scan`
 * (files, the index, the work tree, history) and for `tollgate hook pre-commit` (a scan of the index: what git's
 * pre-commit hook runs on every commit), without help. Reading, deserializing and evaluating a bundle costs with its
 * size, not with the command: the whole CLI's 1.8 MB cost a scan's start 50-90 ms of CPU before its first file
 * (docs/benchmarks.md, "What loading the CLI costs a command"). This one holds the config, the rules, the scanner and
 * the scan's reports, and registers the command line's own command alone, the same the whole CLI registers: `scan`,
 * or `hook`'s group with `pre-commit` (and `install`, registered beside it; bin sends only `pre-commit` here).
 */
export function runCli(argv: readonly string[], hooks: ScanProcessHooks = {}): void {
  whenHistoryReadingStarts(hooks.historyReadingStarts);
  const register = argv[2] === 'hook' ? registerHookPreCommit : registerScan;
  runCommandProcess(argv, () => runProgram(argv, [register]));
}
