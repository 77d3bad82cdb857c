import { isAbsolute } from 'node:path';
import { discardEarlyStage, startChangeSet } from '../core/change-set/index.js';
import { openProject } from '../core/config/open-project.js';
import { findRepoRoot } from '../core/config/repo-root.js';
import { ExitCode } from '../core/errors.js';
import { withCodeContext } from '../core/run/code-context.js';
import { configLocations } from '../core/run/config-locations.js';
import { runGate } from '../core/run/run-gate.js';
import type { RunReport } from '../core/run/run-report.js';
import { readStoredReport } from '../core/run/stored-report.js';
import { stampOf } from '../core/run/tree-stamp.js';
import { plainRunStampOptions, settleUnchangedRun } from '../core/run/unchanged-run.js';
import { checkOutputWritable, writeOutput } from '../core/state/output-file.js';
import { TOLLGATE_VERSION } from '../core/version.js';
import { renderReport, reportFormatOf } from '../report/index.js';
import { validatorsFor } from '../validators/index.js';
import { readerOf } from './person-at-terminal.js';
import { createProgressDisplay } from './progress-display.js';
import type { RunFlags } from './run-flags.js';
import { markCodeCacheComplete, takeEarlyStage, takePlainRun } from './run-handoff.js';

/** `tollgate run`: glue between flags, the gate and the report. Returns the exit code. */
export async function runAndReport(flags: RunFlags): Promise<number> {
  const cwd = process.cwd();
  // Only a plain `tollgate run` is handed over by its small bundle (src/cli/run-fast.ts): its flags are all defaults.
  const plainRun = takePlainRun();
  const changeSetStart = await startRunChangeSet(cwd);
  const { project, outputFile } = await openForRun(flags, cwd, changeSetStart);
  const { repoRoot, loaded } = project;
  const { config } = loaded;
  const command = ['tollgate', ...process.argv.slice(2)].join(' ');
  const display = createProgressDisplay(process.stderr, { heartbeats: flags.progress });
  let report: Awaited<ReturnType<typeof runGate>>;
  try {
    report = await runGate({
      changeSetStart,
      repoRoot,
      config,
      configHash: loaded.hash,
      ...(loaded.policy ? { policy: loaded.policy } : {}),
      tools: validatorsFor(config),
      ...(flags.base ? { base: flags.base } : {}),
      only: flags.only,
      skip: flags.skip,
      wait: flags.wait,
      strict: flags.strict,
      verbose: flags.verbose,
      userRequested: true,
      command,
      version: TOLLGATE_VERSION,
      onProgress: display.update,
      onLockWait: (holder) => display.update('lock', `waiting for ${holder}`),
    });
  } finally {
    display.done();
  }
  if (examinedChangeSet(report)) markCodeCacheComplete();
  const format = flags.format ?? reportFormatOf(config.output.format);
  const locations = loaded.file && !isAbsolute(loaded.file) ? await configLocations(repoRoot, loaded.file) : {};
  const located = { ...report, ...locations };
  const model = format === 'html' ? await htmlModel(repoRoot, located) : located;
  const text = await renderReport(model, format, readerOf(process.env));
  if (outputFile && outputFile !== '-') {
    try {
      await writeOutput(outputFile, text, { cwd, stdout: (chunk) => process.stdout.write(chunk) });
    } catch (error) {
      // The report still goes somewhere: stdout, since the file could not take it.
      process.stdout.write(text);
      throw error;
    }
    process.stderr.write(`tollgate: ${report.verdict}; report written to ${outputFile}\n`);
  } else {
    process.stdout.write(text);
    // The next plain `tollgate run` on this same tree may answer from this report without loading the CLI.
    if (plainRun && (format === 'markdown' || format === 'json')) {
      await settleUnchangedRun(
        repoRoot,
        plainRun.stamp,
        {
          report,
          located: locations,
          format,
          configHash: loaded.hash,
          keepRuns: config.output.keepRuns,
          command,
        },
        () => stampOf(plainRunStampOptions(cwd, process.env)),
      );
    }
  }
  if (report.notStored) {
    process.stderr.write(`tollgate: the results of run ${report.runId} could not be stored: ${report.notStored}\n`);
    return ExitCode.internal;
  }
  return report.verdict === 'passed' ? ExitCode.passed : ExitCode.failed;
}

/**
 * The snapshot of the repository around `cwd`. Its `git add` needs no config: it runs while the config and the policy
 * are read, begun before the CLI loaded when bin/tollgate.cjs could.
 */
async function startRunChangeSet(cwd: string): Promise<ReturnType<typeof startChangeSet>> {
  const early = takeEarlyStage();
  try {
    return startChangeSet(await findRepoRoot(cwd, process.env), early);
  } catch (error) {
    if (early) discardEarlyStage(early);
    throw error;
  }
}

/** The project and the report's destination; a failure here cancels the snapshot already started. */
async function openForRun(
  flags: RunFlags,
  cwd: string,
  changeSetStart: ReturnType<typeof startChangeSet>,
): Promise<{ project: Awaited<ReturnType<typeof openProject>>; outputFile: string | undefined }> {
  try {
    const project = await openProject({ cwd, env: process.env, base: flags.base });
    const outputFile = flags.output ?? project.loaded.config.output.file;
    // A report that cannot be delivered fails now, not after every validator ran.
    if (outputFile) await checkOutputWritable(outputFile, cwd);
    return { project, outputFile };
  } catch (error) {
    changeSetStart.cancel();
    throw error;
  }
}

/**
 * The page is drawn from the run's stored report, as `log --format html` draws it later, so both are the same page;
 * from the report in memory, with code read now, only when it could not be stored.
 */
async function htmlModel(repoRoot: string, report: RunReport): Promise<RunReport> {
  const stored = await readStoredReport(repoRoot, report.runId);
  return stored.kind === 'ok' ? stored.report : withCodeContext(report);
}

/** The run's validators examined a change set: at least one changed file, and a validator that was not skipped. */
function examinedChangeSet(report: RunReport): boolean {
  const skipped = new Set(['skipped_trivial', 'skipped_no_changes']);
  return (report.files?.length ?? 0) > 0 && report.tools.some((tool) => !skipped.has(tool.status));
}
