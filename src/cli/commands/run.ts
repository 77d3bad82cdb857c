import type { Command } from 'commander';
import { describeReportFormats } from '../../report/index.js';
import { exitWhenIdle } from '../exit-when-idle.js';
import { collectList, parseFlags } from '../flags.js';
import { validatorNamesForHelp } from '../help-names.js';
import { runFlags } from '../run-flags.js';

export function registerRun(program: Command): void {
  program
    .command('run')
    .summary('validate the change set with every enabled validator')
    .description(
      'Builds the change set (committed since the base, staged, unstaged and untracked files), runs every enabled validator on it and prints a report. Exit code: 0 passed, 1 findings or failed checks, 2 bad usage or config, 3 internal error.',
    )
    .option(
      '--base <rev>',
      'diff base (a commit, branch or tag); default: config `base`, else the merge-base with the upstream or default branch',
    )
    .option(
      '--only <names>',
      `run only these validators: ${validatorNamesForHelp()} (comma-separated, repeatable)`,
      collectList,
    )
    .option(
      '--skip <names>',
      `skip these validators: ${validatorNamesForHelp()} (comma-separated, repeatable)`,
      collectList,
    )
    .option(
      '--format <format>',
      `report format: ${describeReportFormats()}; default: config output.format, else markdown`,
    )
    .option('-o, --output <file>', 'write the report to this file instead of stdout')
    .option('--no-wait', 'fail at once if another run holds the repository lock, instead of waiting')
    .option(
      '--strict',
      'every enabled validator is required: one that could not run (unavailable, unreachable, timed out) fails the run',
    )
    .option('--verbose', 'also record progress events in the run log')
    .option(
      '--progress',
      'print a heartbeat every 10s while a check or reviewer runs (name, elapsed, last output line); on by default on a TTY',
    )
    .addHelpText(
      'after',
      `
Examples:
  $ tollgate run
  $ tollgate run --base origin/main --format json --output report.json
  $ tollgate run --only checks --no-wait
  $ tollgate run --strict
  $ tollgate run --progress 2> progress.log`,
    )
    .action(async (rawFlags: unknown) => {
      const flags = parseFlags(runFlags, rawFlags);
      const { runAndReport } = await import('../run-and-report.js');
      process.exitCode = await runAndReport(flags);
      exitWhenIdle();
    });
}
