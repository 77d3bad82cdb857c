import { whenHistoryReadingStarts } from '../secrets/sources/history/reading-starts.js';
import { runCommandProcess } from './command-process.js';
import { registerScan } from './commands/scan.js';
import { runProgram } from './program.js';

/** What bin/tollgate.cjs asks of a scan's process beyond its command line. */
export interface ScanProcessHooks {
  /** Called once, as a history scan's first `git log` pass is about to start (its start-up done). */
  historyReadingStarts?: () => void;
}

/**
 * The entry of the scan's own bundle (dist/bundle/cli/scan.cjs), which bin/tollgate.cjs loads for `tollgate scan`
 * (files, the index, the work tree, history) without help. Reading, deserializing and evaluating a bundle costs with
 * its size, not with the command: the whole CLI's 1.8 MB cost a scan's start 50-90 ms of CPU before its first file
 * (docs/benchmarks.md, "What loading the CLI costs a command"). This one holds the config, the rules, the scanner and
 * the scan's reports, and registers `scan` alone, the same command the whole CLI registers.
 */
export function runCli(argv: readonly string[], hooks: ScanProcessHooks = {}): void {
  whenHistoryReadingStarts(hooks.historyReadingStarts);
  runCommandProcess(argv, () => runProgram(argv, [registerScan]));
}
