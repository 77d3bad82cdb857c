import type { TollgateConfig } from '../config/schema.js';
import { errorMessage, isWriteFailure } from '../errors.js';
import { createEventLog, newRunId } from '../events/index.js';
import type { AnyToolDefinition } from '../pipeline/tool.js';
import { acquireLock, ensureTollgateDir, runDirFor } from '../state/index.js';
import { recordRunTelemetry } from '../telemetry/index.js';
import { changeSetForRun } from './change-set-for-run.js';
import { executeSelected } from './execute-selected.js';
import { persistRun } from './persist-run.js';
import { recheckTree } from './recheck-tree.js';
import { type RunReport, type ToolReport, toolReport, type Verdict } from './run-report.js';
import { offValidators, requiredValidators, selectTools } from './select-tools.js';

export interface RunGateOptions {
  repoRoot: string;
  config: TollgateConfig;
  configHash: string;
  tools: readonly AnyToolDefinition[];
  base?: string;
  only?: readonly string[];
  skip?: readonly string[];
  /** Per-tool call input (PR title, trivial-change declarations); `{}` when absent. */
  inputs?: Record<string, unknown>;
  /** Wait for another run's lock (default) or fail at once. */
  wait?: boolean;
  /** Every enabled validator is required (`--strict`). */
  strict?: boolean;
  /** Run the validators even when nothing changed (`advisories check --all`). */
  force?: boolean;
  verbose?: boolean;
  /** The command line that started the run, for the lock file and the log. */
  command: string;
  version: string;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  onProgress?: (toolName: string, message: string) => void;
  onLockWait?: (holder: string) => void;
}

/**
 * One `tollgate run`: lock the repository, build the change set once, run the selected validators through the tool
 * pipeline (sharing that change set), apply waivers, persist results and the event log, and return the report.
 */
export async function runGate(options: RunGateOptions): Promise<RunReport> {
  const started = Date.now();
  const { config, repoRoot } = options;
  const selection = selectTools(options.tools, config, { only: options.only ?? [], skip: options.skip ?? [] });
  await ensureTollgateDir(repoRoot);
  const lock = await acquireLock(repoRoot, {
    wait: options.wait ?? true,
    command: options.command,
    ...(options.onLockWait ? { onWait: options.onLockWait } : {}),
  });
  try {
    const changeSet = await changeSetForRun(repoRoot, config, options.base);
    const runId = newRunId();
    const runDir = runDirFor(repoRoot, runId);
    const events = await createEventLog(runDir, { verbose: options.verbose ?? false });
    let report: RunReport;
    let logError: string | undefined;
    let closeFailure: unknown;
    try {
      events.emit('run.start', {
        runId,
        command: options.command,
        repoRoot,
        base: changeSet.base,
        fingerprint: changeSet.fingerprint,
        configHash: options.configHash,
        tools: selection.tools.map((tool) => tool.name),
      });
      const ran = await executeSelected(
        selection.tools.map((tool) => ({ tool, arguments: options.inputs?.[tool.name] ?? {} })),
        {
          repoRoot,
          config,
          configHash: options.configHash,
          registry: options.tools,
          changeSet,
          events,
          runDir,
          deadline: started + config.validation.timeout,
          ...(options.force ? { force: true } : {}),
          ...(options.signal ? { signal: options.signal } : {}),
          ...(options.env ? { env: options.env } : {}),
          ...(options.onProgress ? { onProgress: options.onProgress } : {}),
        },
      );
      const { executions } = await recheckTree(repoRoot, config, changeSet, ran, options.base);
      let persisted: { tools: ToolReport[]; verdict: Verdict };
      let notStored: string | undefined;
      try {
        persisted = await persistRun({
          repoRoot,
          runId,
          fingerprint: changeSet.fingerprint,
          configHash: options.configHash,
          executions,
          complete: !selection.partial,
          required: requiredValidators(options.tools, config, options.strict),
        });
        await recordRunTelemetry(runDir, { runId, source: 'run', tools: persisted.tools });
      } catch (error) {
        // A full or read-only disk must not cost the user the report of a run that did happen; nothing was stored,
        // so the gate stays closed, and the caller exits with the write error.
        if (!isWriteFailure(error)) throw error;
        notStored = errorMessage(error);
        persisted = { tools: executions.map(toolReport), verdict: 'failed' };
      }
      const { tools, verdict } = persisted;
      const durationMs = Date.now() - started;
      events.emit('run.end', { runId, verdict, durationMs });
      report = {
        tool: 'tollgate',
        version: options.version,
        runId,
        startedAt: new Date(started).toISOString(),
        durationMs,
        verdict,
        repoRoot,
        base: changeSet.base,
        fingerprint: changeSet.fingerprint,
        changedFiles: changeSet.files.length,
        files: changeSet.files.map((file) => ({ path: file.path, status: file.status })),
        ignored: changeSet.ignored,
        skippedFiles: changeSet.skipped,
        partial: selection.partial,
        tools,
        maxOutputLines: config.output.maxOutputLines,
        ...(notStored ? { notStored } : {}),
        off: offValidators(options.tools, config),
      };
    } finally {
      try {
        events.close();
      } catch (error) {
        closeFailure = error;
      }
    }
    // The event log could not be completed (full disk): the run has no full record, so it must not count.
    if (closeFailure !== undefined) {
      if (!isWriteFailure(closeFailure)) throw closeFailure;
      logError = errorMessage(closeFailure);
    }
    return logError && !report.notStored ? { ...report, verdict: 'failed', notStored: logError } : report;
  } finally {
    await lock.release();
  }
}
