import { onAbort } from '../abort-handlers.js';
import type { ChangeSetStart } from '../change-set/index.js';
import type { RepoChangeSet } from '../change-set/types.js';
import type { TollgateConfig } from '../config/schema.js';
import { errorMessage, isWriteFailure } from '../errors.js';
import { createEventLog, newRunId } from '../events/index.js';
import { trackOpenCalls } from '../events/interrupted-calls.js';
import { loadRedactor, prepareRedactor } from '../pipeline/redact-result.js';
import type { AnyToolDefinition } from '../pipeline/tool.js';
import type { EffectivePolicy } from '../policy/effective-policy.js';
import { reapLeftoverGroups } from '../process-ledger.js';
import type { ToolResult } from '../result.js';
import { recordRunHistory } from '../state/history-store.js';
import { acquireLock, ensureTollgateDir, runDirFor } from '../state/index.js';
import { pruneRuns } from '../state/prune-runs.js';
import { type RunTelemetryInput, recordInterruptedRun, recordRunTelemetry } from '../telemetry/index.js';
import { changeSetForRun } from './change-set-for-run.js';
import { executeSelected, type SelectedCall } from './execute-selected.js';
import { pendingPolicyExecution, withPendingChecksNote } from './pending-policy.js';
import { persistRun } from './persist-run.js';
import { recheckTree, startRecheck } from './recheck-tree.js';
import { runEndTools } from './run-end-tools.js';
import { type ToolReport, toolReport, type Verdict } from './run-report.js';
import { withUnexaminedFiles } from './unexamined-files.js';

/**
 * What every run of validators is given, however it was asked for: the repository and its config, the calls to run,
 * and how to report on them as they go.
 */
export interface ValidatorRunOptions {
  repoRoot: string;
  config: TollgateConfig;
  configHash: string;
  /**
   * The policy the config came from (`LoadedConfig.policy`, docs/policy.md): validators read suppression files through
   * it, and an edit of it that no person accepted is a finding of the run.
   */
  policy?: EffectivePolicy;
  /** Every registered validator (the pipeline looks calls up here). */
  registry: readonly AnyToolDefinition[];
  calls: readonly SelectedCall[];
  /** The calls cover every enabled validator: only then may the verdict satisfy the stop hook. */
  complete: boolean;
  mcpServerName?: string;
  /** A person asked for this run directly (`tollgate run`): each call gets a `tool.user_requested` event. */
  userRequested?: boolean;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  onProgress?: (toolName: string, message: string) => void;
  /** Called as each validator settles (ran, skipped or failed), so a heartbeat can name only those still running. */
  onToolDone?: (toolName: string) => void;
}

/**
 * One run, however it was asked for (`tollgate run`, the stop hook, an MCP call): lock the repository, build the change
 * set once, log events, run the calls through the pipeline, check the tree did not change under them, store the results
 * and the verdict, record telemetry. Callers add only what is theirs (tool selection, session budget, the report).
 */
export interface RunLifecycleOptions extends ValidatorRunOptions {
  /** The command line, for the lock file and the event log. */
  command: string;
  base?: string;
  lock: { wait: boolean; timeoutMs?: number; onWait?: (holder: string) => void };
  /** Epoch ms by which every tool must be done. */
  deadline: number;
  /** Validators that must really run (`validation.required`, `--strict`). */
  required: readonly string[];
  verbose?: boolean;
  /** Run even when nothing changed (`advisories check --all`). */
  force?: boolean;
  skipBefore?: (tool: AnyToolDefinition) => ToolResult | null;
  /**
   * The snapshot `tollgate run` began while it read the config (`startChangeSet`): used when the lock was free at once
   * and no leftover of a killed run had to be stopped, else cancelled for a fresh one. Cancelled on every failure.
   */
  changeSetStart?: ChangeSetStart;
  /**
   * Answers without running anything (the MCP call's "no changes" shortcut); null: run the calls. Nothing is stored
   * for such an answer.
   */
  shortcut?: (changeSet: RepoChangeSet) => { tools: ToolReport[]; verdict: Verdict } | null;
  /** What telemetry records of the finished run (its source, the call as a whole). */
  telemetry: (outcome: Omit<RunLifecycleOutcome, 'notStored'>) => Omit<RunTelemetryInput, 'runId' | 'tools'>;
}

export interface RunLifecycleOutcome {
  runId: string;
  changeSet: RepoChangeSet;
  tools: ToolReport[];
  verdict: Verdict;
  startedAt: number;
  durationMs: number;
  /** Set when the results could not be stored (a full or read-only disk): the run counts for nothing. */
  notStored?: string;
}

export async function runLifecycle(options: RunLifecycleOptions): Promise<RunLifecycleOutcome> {
  const started = Date.now();
  const { repoRoot, config } = options;
  const locked = await lockForRun(options);
  const { lock } = locked;
  let { early } = locked;
  try {
    if (await stopLeftovers(repoRoot, early)) early = undefined;
    const changeSet = await changeSetForRun(repoRoot, config, options.base, early, prepareRedactor);
    const runId = newRunId();
    const runDir = runDirFor(repoRoot, runId);
    const events = createEventLog(runDir, { verbose: options.verbose ?? false });
    let outcome: RunLifecycleOutcome;
    let closeFailure: unknown;
    let removeAbortRecord = () => {};
    const openCalls = trackOpenCalls(events);
    try {
      events.emit('run.start', {
        runId,
        command: options.command,
        repoRoot,
        base: changeSet.base,
        fingerprint: changeSet.fingerprint,
        configHash: options.configHash,
        tools: options.calls.map((call) => call.tool.name),
      });
      // Ctrl-C or a kill ends the process at once: the log records that, rather than merely stopping.
      removeAbortRecord = onAbort((signal) => {
        const interrupted = openCalls.interrupt(signal);
        const durationMs = Date.now() - started;
        events.emit('run.abort', { runId, signal, durationMs });
        events.close();
        recordInterruptedRun(runDir, {
          runId,
          source: options.mcpServerName ? 'mcp' : 'run',
          signal,
          durationMs,
          tools: interrupted,
        });
      });
      const answered = options.shortcut?.(changeSet) ?? null;
      const stored = answered ? { ...answered } : await executeAndStore(options, { changeSet, runId, runDir, events });
      const durationMs = Date.now() - started;
      const tools = runEndTools(stored.tools, await loadRedactor());
      events.emit('run.end', { runId, verdict: stored.verdict, durationMs, tools });
      outcome = { runId, changeSet, startedAt: started, durationMs, ...stored };
      const { notStored: _notStored, ...finished } = outcome;
      await recordRunTelemetry(runDir, { runId, tools: outcome.tools, ...options.telemetry(finished) });
    } finally {
      removeAbortRecord();
      openCalls.stop();
      try {
        events.close();
      } catch (error) {
        closeFailure = error;
      }
    }
    // The event log could not be completed (full disk): the run has no full record, so it must not count.
    if (closeFailure !== undefined) {
      if (!isWriteFailure(closeFailure)) throw closeFailure;
      if (!outcome.notStored) outcome = { ...outcome, verdict: 'failed', notStored: errorMessage(closeFailure) };
    }
    // Retention (`output.keepRuns`): best effort, a prune that fails leaves folders, never fails the run.
    await pruneRuns(repoRoot, { keep: config.output.keepRuns, current: runId }).catch(() => []);
    return outcome;
  } finally {
    await lock.release();
  }
}

/**
 * The run lock, and the change set begun before it (`early`) when it still describes the tree this run gets: another
 * run that held the tree meanwhile makes it stale, so it is cancelled.
 */
async function lockForRun(
  options: RunLifecycleOptions,
): Promise<{ lock: Awaited<ReturnType<typeof acquireLock>>; early: RunLifecycleOptions['changeSetStart'] }> {
  let early = options.changeSetStart;
  try {
    ensureTollgateDir(options.repoRoot);
    const lock = await acquireLock(options.repoRoot, {
      wait: options.lock.wait,
      command: options.command,
      ...(options.lock.timeoutMs !== undefined ? { timeoutMs: options.lock.timeoutMs } : {}),
      onWait: (holder) => {
        early?.cancel();
        early = undefined;
        options.lock.onWait?.(holder);
      },
    });
    return { lock, early };
  } catch (error) {
    early?.cancel();
    throw error;
  }
}

/**
 * Checks and analyzers that a run killed with SIGKILL left running: stopped before this run starts its own. True when
 * something was stopped or may still run: a snapshot begun before (`early`, then cancelled) may hold what it wrote.
 */
async function stopLeftovers(repoRoot: string, early: ChangeSetStart | undefined): Promise<boolean> {
  let reaped: Awaited<ReturnType<typeof reapLeftoverGroups>>;
  try {
    reaped = await reapLeftoverGroups(repoRoot);
  } catch (error) {
    early?.cancel();
    throw error;
  }
  const { stopped, unsure } = reaped;
  const stale = stopped.length > 0 || unsure.length > 0;
  if (stale) early?.cancel();
  for (const line of stopped) process.stderr.write(`tollgate: stopped ${line}, left running by an earlier run\n`);
  for (const line of unsure) {
    process.stderr.write(
      `tollgate: an earlier run may have left ${line} running; it could not be confirmed, so it was left alone\n`,
    );
  }
  return stale;
}

async function executeAndStore(
  options: RunLifecycleOptions,
  run: { changeSet: RepoChangeSet; runId: string; runDir: string; events: ReturnType<typeof createEventLog> },
): Promise<{ tools: ToolReport[]; verdict: Verdict; notStored?: string }> {
  const { repoRoot, config } = options;
  let recheck: ReturnType<typeof startRecheck> | undefined;
  const ran = await executeSelected(options.calls, {
    repoRoot,
    config,
    configHash: options.configHash,
    registry: options.registry,
    changeSet: run.changeSet,
    events: run.events,
    runDir: run.runDir,
    deadline: options.deadline,
    ...(options.policy ? { policy: options.policy } : {}),
    ...(options.force ? { force: true } : {}),
    ...(options.skipBefore ? { skipBefore: options.skipBefore } : {}),
    ...(options.mcpServerName ? { mcpServerName: options.mcpServerName } : {}),
    ...(options.userRequested ? { userRequested: true } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.onToolDone ? { onToolDone: options.onToolDone } : {}),
    onWorkTreeDone: () => {
      recheck = startRecheck(repoRoot, config, run.changeSet, options.base);
    },
  });
  const { executions: rechecked } = await recheckTree(
    repoRoot,
    config,
    run.changeSet,
    withUnexaminedFiles(run.changeSet, ran),
    options.base,
    recheck,
  );
  const pending = options.policy ? pendingPolicyExecution(options.policy) : null;
  const executions = pending
    ? [...withPendingChecksNote(rechecked, options.policy!, checksIn(config)), pending]
    : rechecked;
  try {
    const persisted = await persistRun({
      repoRoot,
      runId: run.runId,
      fingerprint: run.changeSet.fingerprint,
      configHash: options.configHash,
      head: run.changeSet.head,
      ...(options.policy ? { policy: options.policy } : {}),
      executions,
      complete: options.complete && !options.signal?.aborted,
      required: options.required,
    });
    await rememberCommits(repoRoot, run.changeSet, persisted.verdict === 'passed' && persisted.complete);
    return { tools: persisted.tools, verdict: persisted.verdict };
  } catch (error) {
    // A full or read-only disk must not cost the user the report of a run that did happen; nothing was stored, so
    // the gate stays closed, and the caller reports the write error.
    if (!isWriteFailure(error)) throw error;
    return { tools: executions.map(toolReport), verdict: 'failed', notStored: errorMessage(error) };
  }
}

/**
 * The run's base becomes trusted, and a complete pass makes its HEAD validated: what a later run's base is held to
 * (pin-base.ts). Not remembering only makes a later change larger, so a disk that refuses the write costs nothing more.
 */
async function rememberCommits(repoRoot: string, changeSet: RepoChangeSet, passed: boolean): Promise<void> {
  try {
    await recordRunHistory(repoRoot, { base: changeSet.base, head: changeSet.head, passed });
  } catch (error) {
    if (!isWriteFailure(error)) throw error;
  }
}

/** How many checks the config holds (the base's, while an edit of it is pending). */
function checksIn(config: TollgateConfig): number {
  return Array.isArray(config.checks) ? config.checks.length : 0;
}
