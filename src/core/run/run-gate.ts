import type { ChangeSetStart } from '../change-set/index.js';
import type { TollgateConfig } from '../config/schema.js';
import type { AnyToolDefinition } from '../pipeline/tool.js';
import type { EffectivePolicy } from '../policy/effective-policy.js';
import { type RunLifecycleOutcome, runLifecycle } from './run-lifecycle.js';
import type { RunReport } from './run-report.js';
import { offValidators, requiredValidators, selectTools } from './select-tools.js';
import { storeRunReport } from './stored-report.js';

export interface RunGateOptions {
  repoRoot: string;
  config: TollgateConfig;
  configHash: string;
  /** `LoadedConfig.policy`: what suppressions are read from, and the policy edits that block (docs/policy.md). */
  policy?: EffectivePolicy;
  tools: readonly AnyToolDefinition[];
  base?: string;
  only?: readonly string[];
  skip?: readonly string[];
  /** Per-tool call input (PR title, trivial-change declarations); `{}` when absent. */
  inputs?: Record<string, unknown>;
  /** The snapshot begun while the config was read (`startChangeSet`); cancelled if the run cannot use it. */
  changeSetStart?: ChangeSetStart;
  /** Wait for another run's lock (default) or fail at once. */
  wait?: boolean;
  /** Every enabled validator is required (`--strict`). */
  strict?: boolean;
  /** Run the validators even when nothing changed (`advisories check --all`). */
  force?: boolean;
  verbose?: boolean;
  /** A person asked for this run directly (`tollgate run`), not the stop hook on an agent's behalf. */
  userRequested?: boolean;
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
  const { config, repoRoot } = options;
  let selection: ReturnType<typeof selectTools>;
  let required: string[];
  try {
    selection = selectTools(options.tools, config, { only: options.only ?? [], skip: options.skip ?? [] });
    required = requiredValidators(options.tools, config, options.strict);
  } catch (error) {
    // A bad --only or --skip: the snapshot begun for the run is not needed.
    options.changeSetStart?.cancel();
    throw error;
  }
  const started = Date.now();
  const run = await runLifecycle({
    ...(options.changeSetStart ? { changeSetStart: options.changeSetStart } : {}),
    repoRoot,
    config,
    configHash: options.configHash,
    ...(options.policy ? { policy: options.policy } : {}),
    registry: options.tools,
    calls: selection.tools.map((tool) => ({ tool, arguments: options.inputs?.[tool.name] ?? {} })),
    command: options.command,
    ...(options.base ? { base: options.base } : {}),
    lock: { wait: options.wait ?? true, ...(options.onLockWait ? { onWait: options.onLockWait } : {}) },
    deadline: started + config.validation.timeout,
    complete: !selection.partial,
    required,
    verbose: options.verbose ?? false,
    ...(options.force ? { force: true } : {}),
    ...(options.userRequested ? { userRequested: true } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    telemetry: () => ({ source: 'run' }),
  });
  const report = reportOfRun(run, {
    repoRoot,
    config,
    tools: options.tools,
    partial: selection.partial,
    version: options.version,
  });
  // What `run --format html` and `log --format html` draw: not worth trying on a disk that refused the results.
  if (!run.notStored) await storeRunReport(report);
  return report;
}

/** The report of a finished run: what every renderer draws and what the run stores (`stored-report.ts`). */
export function reportOfRun(
  run: RunLifecycleOutcome,
  facts: {
    repoRoot: string;
    config: TollgateConfig;
    tools: readonly AnyToolDefinition[];
    partial: boolean;
    version: string;
  },
): RunReport {
  const { changeSet } = run;
  const { config } = facts;
  return {
    tool: 'tollgate',
    version: facts.version,
    runId: run.runId,
    startedAt: new Date(run.startedAt).toISOString(),
    durationMs: run.durationMs,
    verdict: run.verdict,
    repoRoot: facts.repoRoot,
    base: changeSet.base,
    fingerprint: changeSet.fingerprint,
    changedFiles: changeSet.files.length,
    files: changeSet.files.map((file) => ({ path: file.path, status: file.status })),
    ignored: changeSet.ignored,
    skippedFiles: changeSet.skipped,
    partial: facts.partial,
    tools: run.tools,
    maxOutputLines: config.output.maxOutputLines,
    ...(config.output.sarifChecks ? { sarifChecks: true } : {}),
    ...(run.notStored ? { notStored: run.notStored } : {}),
    off: offValidators(facts.tools, config),
  };
}
