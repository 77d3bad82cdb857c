import { isToolEnabled, type TollgateConfig } from '../../core/config/schema.js';
import { isTollgateError } from '../../core/errors.js';
import { normalizeToolName } from '../../core/pipeline/execute-tool.js';
import type { AnyToolDefinition } from '../../core/pipeline/tool.js';
import type { EffectivePolicy } from '../../core/policy/effective-policy.js';
import { isPassingStatus } from '../../core/result.js';
import { runGate } from '../../core/run/run-gate.js';

/**
 * The AbortSignal fires this long after `hooks.stop.timeout`: the pipeline's own deadline (the same limit) comes
 * first and turns a validator still running into a `timeout` result; the signal only backs it up.
 */
const ABORT_MARGIN_MS = 1000;

/** What the stop hook's own run did: named in the block reason. */
export interface StopRunSummary {
  /** The validators it ran. */
  ran: string[];
  /** Those that did not pass, as `name (status)`. */
  failing: string[];
  /** Findings the run reported. */
  findings: number;
  /** Enabled validators it did not run: a pass of the others still leaves them owed. */
  missing: string[];
}

export interface StopRunOptions {
  repoRoot: string;
  /** The run's time limit: `hooks.stop.timeout`, or less when the hook's deadline is nearer. */
  timeoutMs: number;
  config: TollgateConfig;
  configHash: string;
  /** The loaded config's policy (docs/policy.md). */
  policy?: EffectivePolicy;
  registry: readonly AnyToolDefinition[];
  env: NodeJS.ProcessEnv;
  version: string;
  warn: (line: string) => void;
}

/**
 * The validators of `hooks.stop.validators` (names or aliases) that are enabled: the hook never runs a validator the
 * config switched off, and a name that matches none is ignored with a warning.
 */
function stopRunSelection(
  registry: readonly AnyToolDefinition[],
  config: TollgateConfig,
  warn: (line: string) => void = () => {},
): AnyToolDefinition[] {
  const byName = new Map(
    registry.flatMap((tool) => [tool.name, ...(tool.aliases ?? [])].map((name) => [name, tool] as const)),
  );
  const chosen = new Set<AnyToolDefinition>();
  for (const name of config.hooks.stop.validators) {
    const tool = byName.get(normalizeToolName(name));
    if (!tool) {
      const known = registry.map((each) => each.name).join(', ');
      warn(
        `tollgate: hooks.stop.validators: unknown validator ${JSON.stringify(name)} ignored; expected one of ${known}`,
      );
    } else if (isToolEnabled(config, tool)) chosen.add(tool);
  }
  return registry.filter((tool) => chosen.has(tool));
}

/**
 * Runs the selected validators through `runGate` (lock, one change set, the pipeline, persisted results) within
 * `timeoutMs`. The run counts as complete, and so may satisfy the gate, only when the selection is every
 * enabled validator. Null when there is nothing to run or another run holds the lock (the caller decides from state).
 */
export async function runStopValidators(options: StopRunOptions): Promise<StopRunSummary | null> {
  const { config } = options;
  const selected = stopRunSelection(options.registry, config, options.warn);
  if (selected.length === 0) return null;
  const { timeoutMs } = options;
  // The pipeline's deadline is the run's start plus `validation.timeout`: narrowing it makes a validator still running
  // at the hook's limit end as `timeout`, its process group killed. The config hash stays that of the loaded file.
  const bounded: TollgateConfig = {
    ...config,
    validation: { ...config.validation, timeout: Math.min(config.validation.timeout, timeoutMs) },
  };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error('timeout')), timeoutMs + ABORT_MARGIN_MS);
  timer.unref();
  try {
    const report = await runGate({
      repoRoot: options.repoRoot,
      config: bounded,
      configHash: options.configHash,
      ...(options.policy ? { policy: options.policy } : {}),
      tools: options.registry,
      only: selected.map((tool) => tool.name),
      wait: false, // another run is validating: the hook must not queue behind it
      command: 'tollgate hook stop',
      version: options.version,
      signal: controller.signal,
      env: options.env,
    });
    const ran = new Set(report.tools.map((tool) => tool.name));
    return {
      ran: [...ran],
      failing: report.tools
        .filter((tool) => !isPassingStatus(tool.status))
        .map((tool) => `${tool.name} (${tool.status})`),
      findings: report.tools.reduce((sum, tool) => sum + tool.findings.length, 0),
      missing: options.registry
        .filter((tool) => isToolEnabled(config, tool) && !ran.has(tool.name))
        .map((tool) => tool.name),
    };
  } catch (error) {
    if (isTollgateError(error) && error.code === 'lock_busy') {
      options.warn('tollgate: stop hook: another tollgate run holds the lock; not running validators in the hook');
      return null;
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
