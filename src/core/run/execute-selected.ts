import pLimit from 'p-limit';
import { isUnchanged, type RepoChangeSet } from '../change-set/types.js';
import type { TollgateConfig } from '../config/schema.js';
import type { EventSink } from '../pipeline/event-sink.js';
import { executeTool, type ToolExecution } from '../pipeline/execute-tool.js';
import type { AnyToolDefinition } from '../pipeline/tool.js';
import type { EffectivePolicy } from '../policy/effective-policy.js';
import { result, type ToolResult } from '../result.js';
import { canSkipNoChanges } from '../state/index.js';

/** One validator to run, with the arguments of its call. */
export interface SelectedCall {
  tool: AnyToolDefinition;
  arguments: unknown;
}

export interface ExecuteSelectedOptions {
  repoRoot: string;
  config: TollgateConfig;
  configHash: string;
  /** Every registered validator: the pipeline looks the called one up here. */
  registry: readonly AnyToolDefinition[];
  changeSet: RepoChangeSet;
  events: EventSink;
  runDir: string;
  deadline: number;
  /** The policy the run judges by; validators read their suppression files through it. */
  policy?: EffectivePolicy;
  /** Set when the calls came through the MCP server: recorded on every `tool.execution_start` event. */
  mcpServerName?: string;
  /** A person asked for these calls directly (`tollgate run`): each gets a `tool.user_requested` event. */
  userRequested?: boolean;
  /** Run even when nothing changed or an earlier pass would stand in (`advisories check --all`). */
  force?: boolean;
  /** A decision taken before the shared no-changes check, e.g. a declared trivial change (`skipped_trivial`). */
  skipBefore?: (tool: AnyToolDefinition) => ToolResult | null;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  onProgress?: (toolName: string, message: string) => void;
  /** Called as each validator settles (ran, skipped or failed), so a heartbeat can name only those still running. */
  onToolDone?: (toolName: string) => void;
  /**
   * Called once, while a validator still runs, when every validator has settled or said it reads only the snapshot
   * from then on (`ToolContext.doneWithWorkTree`): the check of the tree after the validators may start then. Never
   * called when the last of them settles first.
   */
  onWorkTreeDone?: () => void;
}

/**
 * Runs the selected validators through the tool pipeline, sharing one change set, at most `validation.concurrency`
 * at a time. A validator whose last success was on this very fingerprint and config answers `skipped_no_changes`
 * without running. Each call settles on its own: one validator's failure is its own result (`executeTool` never
 * throws), so this behaves as `Promise.allSettled`.
 */
export async function executeSelected(
  calls: readonly SelectedCall[],
  options: ExecuteSelectedOptions,
): Promise<ToolExecution[]> {
  const preflight = async (tool: AnyToolDefinition): Promise<ToolResult | null> => {
    const early = options.skipBefore?.(tool);
    if (early) return early;
    if (options.force) return null;
    const { changeSet } = options;
    if (tool.readsHistory ? isUnchanged(changeSet) : changeSet.isEmpty) {
      return result('skipped_no_changes', 'No changes detected against the base. Skipping validation.');
    }
    const previous = await canSkipNoChanges(options.repoRoot, {
      tool: tool.name,
      fingerprint: changeSet.fingerprint,
      configHash: options.configHash,
      ...(tool.readsHistory ? { head: changeSet.head } : {}),
    });
    if (!previous.skip) return null;
    return result(
      'skipped_no_changes',
      `no changes since this validator last passed (run ${previous.since.runId}); nothing to do`,
    );
  };
  const limit = pLimit(options.config.validation.concurrency);
  const alone = aloneTracker(calls);
  const workTree = workTreeTracker(calls, options.onWorkTreeDone);
  // A tool that waits to run alone goes last, so that with one slot it does not hold the slot the others wait for.
  const waitsAlone = (call: SelectedCall) =>
    Number(call.tool.mayWaitAlone?.(options.config[call.tool.configKey] as never) === true);
  const ordered = [...calls].sort((a, b) => waitsAlone(a) - waitsAlone(b));
  const executions = await Promise.all(
    ordered.map((call) =>
      limit(async () => {
        const execution = await executeTool(
          {
            toolName: call.tool.name,
            arguments: call.arguments,
            ...(options.mcpServerName ? { mcpServerName: options.mcpServerName } : {}),
            ...(options.userRequested ? { userRequested: true } : {}),
          },
          {
            repoRoot: options.repoRoot,
            changeSet: options.changeSet,
            config: options.config,
            tools: options.registry,
            events: options.events,
            runDir: options.runDir,
            deadline: options.deadline,
            preflight,
            ...(options.policy ? { policy: options.policy } : {}),
            ...(options.signal ? { signal: options.signal } : {}),
            ...(options.env ? { env: options.env } : {}),
            ...(options.onProgress ? { onProgress: options.onProgress } : {}),
            whenAlone: alone.whenAlone,
            ...(options.onWorkTreeDone ? { onDoneWithWorkTree: workTree.done } : {}),
          },
        ).finally(() => {
          alone.settled(call.tool.name);
          workTree.settled(call.tool.name);
        });
        options.onToolDone?.(call.tool.name);
        return execution;
      }),
    ),
  );
  return calls.map((call) => executions[ordered.indexOf(call)]!);
}

/** Which calls have not settled yet, and a promise per tool for when it is the only one left. */
function aloneTracker(calls: readonly SelectedCall[]) {
  const pending = new Set(calls.map((call) => call.tool.name));
  const waiters: Array<{ tool: string; done: () => void }> = [];
  const wake = () => {
    for (const waiter of [...waiters]) {
      if ([...pending].every((name) => name === waiter.tool)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.done();
      }
    }
  };
  return {
    whenAlone: (tool: string) =>
      new Promise<void>((done) => {
        waiters.push({ tool, done });
        wake();
      }),
    settled: (tool: string) => {
      pending.delete(tool);
      wake();
    },
  };
}

/**
 * Which calls may still read the work tree: each leaves when it settles or says it is done with it; once none is left
 * and one of them still runs, `onDone` is called (once).
 */
function workTreeTracker(calls: readonly SelectedCall[], onDone: (() => void) | undefined) {
  const reading = new Set(calls.map((call) => call.tool.name));
  const running = new Set(reading);
  let called = false;
  const check = () => {
    if (called || reading.size > 0 || running.size === 0) return;
    called = true;
    onDone?.();
  };
  return {
    done: (tool: string) => {
      reading.delete(tool);
      check();
    },
    settled: (tool: string) => {
      reading.delete(tool);
      running.delete(tool);
      check();
    },
  };
}
