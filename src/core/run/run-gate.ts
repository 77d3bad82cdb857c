import pLimit from 'p-limit';
import { type RunReport, toolReport, verdictOf } from '../../report/run-report.js';
import { createChangeSet } from '../change-set/index.js';
import type { RepoChangeSet } from '../change-set/types.js';
import type { TollgateConfig } from '../config/schema.js';
import { createEventLog, newRunId } from '../events/index.js';
import type { Finding } from '../finding.js';
import { executeTool, type ToolExecution } from '../pipeline/execute-tool.js';
import type { AnyToolDefinition } from '../pipeline/tool.js';
import { result, type ToolResult } from '../result.js';
import {
  acquireLock,
  applyWaivers,
  canSkipNoChanges,
  ensureTollgateDir,
  listWaivers,
  recordResult,
  recordRunVerdict,
  runDirFor,
} from '../state/index.js';
import { selectTools } from './select-tools.js';

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
    const changeSet = await createChangeSet({
      cwd: repoRoot,
      ...(options.base ? { base: options.base } : {}),
      ...(config.base ? { configBase: config.base } : {}),
      ignore: config.ignore,
      maxFileSize: config.validation.maxFileSize,
    });
    const runId = newRunId();
    const runDir = runDirFor(repoRoot, runId);
    const events = await createEventLog(runDir, { verbose: options.verbose ?? false });
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
      const executions = await runSelected(selection.tools, {
        ...options,
        changeSet,
        runDir,
        events,
        deadline: started + config.validation.timeout,
      });
      const waivers = await listWaivers(repoRoot);
      const tools = executions.map((execution) => toolReport(withWaivers(execution, waivers)));
      const verdict = verdictOf(tools);
      for (const [index, tool] of tools.entries()) {
        await recordResult(repoRoot, {
          tool: tool.name,
          fingerprint: changeSet.fingerprint,
          configHash: options.configHash,
          // The status before waivers: a waived failure must not become the baseline a later skip stands on, or
          // removing the waiver would leave a blocking finding behind a skip.
          status: executions[index]!.result.status,
          runId,
          at: new Date().toISOString(),
          findings: tool.findings.map(({ id, severity, title, path, line }) => ({ id, severity, title, path, line })),
        });
      }
      await recordRunVerdict(repoRoot, {
        runId,
        fingerprint: changeSet.fingerprint,
        configHash: options.configHash,
        tools: tools.map((tool) => tool.name),
        verdict,
        complete: !selection.partial,
      });
      const durationMs = Date.now() - started;
      events.emit('run.end', { runId, verdict, durationMs });
      return {
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
        ignored: changeSet.ignored,
        skippedFiles: changeSet.skipped,
        partial: selection.partial,
        tools,
        maxOutputLines: config.output.maxOutputLines,
      };
    } finally {
      await events.close();
    }
  } finally {
    await lock.release();
  }
}

interface SelectedRunEnvironment extends RunGateOptions {
  changeSet: RepoChangeSet;
  runDir: string;
  events: Awaited<ReturnType<typeof createEventLog>>;
  deadline: number;
}

async function runSelected(tools: readonly AnyToolDefinition[], env: SelectedRunEnvironment): Promise<ToolExecution[]> {
  const preflight = async (tool: AnyToolDefinition): Promise<ToolResult | null> => {
    if (env.changeSet.isEmpty) {
      return result('skipped_no_changes', 'No changes detected against the base. Skipping validation.');
    }
    const previous = await canSkipNoChanges(env.repoRoot, {
      tool: tool.name,
      fingerprint: env.changeSet.fingerprint,
      configHash: env.configHash,
    });
    if (!previous.skip) return null;
    return result(
      'skipped_no_changes',
      `no changes since this validator last passed (run ${previous.since.runId}); nothing to do`,
    );
  };
  const limit = pLimit(env.config.validation.concurrency);
  return Promise.all(
    tools.map((tool) =>
      limit(() =>
        executeTool(
          { toolName: tool.name, arguments: env.inputs?.[tool.name] ?? {} },
          {
            repoRoot: env.repoRoot,
            changeSet: env.changeSet,
            config: env.config,
            tools: env.tools,
            events: env.events,
            runDir: env.runDir,
            deadline: env.deadline,
            preflight,
            ...(env.signal ? { signal: env.signal } : {}),
            ...(env.env ? { env: env.env } : {}),
            ...(env.onProgress ? { onProgress: env.onProgress } : {}),
          },
        ),
      ),
    ),
  );
}

/** A failed tool whose every finding is waived passes: a waiver is an accepted risk, still shown in the report. */
function withWaivers(execution: ToolExecution, waivers: Awaited<ReturnType<typeof listWaivers>>): ToolExecution {
  const findings: Finding[] = applyWaivers(execution.result.findings, waivers);
  const waived = findings.filter((finding) => finding.waiver).length;
  if (waived === 0) return execution;
  const allWaived = waived === findings.length;
  const status = execution.result.status === 'failed' && allWaived ? 'passed' : execution.result.status;
  const summary = `${execution.result.summary} (${waived} finding(s) waived)`;
  return { ...execution, result: { ...execution.result, status, summary, findings } };
}
