import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { z } from 'zod';
import type { RepoChangeSet } from '../change-set/types.js';
import type { TollgateConfig } from '../config/schema.js';
import { formatDuration } from '../config/units.js';
import { errorMessage, isTollgateError } from '../errors.js';
import type { EffectivePolicy } from '../policy/effective-policy.js';
import { runProcess } from '../process.js';
import { ledgerFor } from '../process-ledger.js';
import { FAILURE_STATUSES, result, type ToolResult } from '../result.js';
import { ONE_SHOT } from '../state/atomic-write.js';
import type { EventSink } from './event-sink.js';
import { type HookReply, type HookRunContext, type HookType, hookMatches, runHook } from './hooks.js';
import { checkPermissions } from './permissions.js';
import { heartbeatInterval, withHeartbeat } from './process-heartbeat.js';
import { loadRedactor, redactResult } from './redact-result.js';
import type { AnyToolDefinition, Budget, ResultReader, ToolContext } from './tool.js';

export type ProgressKind = 'status' | 'heartbeat';

/** One call of one tool, as an agent (MCP), `tollgate run` or a hook asks for it. */
export interface ToolCall {
  toolName: string;
  arguments?: unknown;
  /** Provenance when the call came through the MCP server. */
  mcpServerName?: string;
  /** A person asked for it directly (`tollgate run`), not an agent (MCP) or a hook. */
  userRequested?: boolean;
}

/** Everything a call needs from the run around it. */
export interface PipelineEnvironment {
  repoRoot: string;
  changeSet: RepoChangeSet;
  config: TollgateConfig;
  tools: readonly AnyToolDefinition[];
  events: EventSink;
  /** This run's folder; each tool gets `<runDir>/<tool>/` for its artifacts. */
  runDir: string;
  /** Epoch ms by which every tool must be done (`validation.timeout` from the start of the run). */
  deadline: number;
  /** The policy the run judges by (the config's `policy`); tools read suppression files through it. */
  policy?: EffectivePolicy;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  /** Decides, before running, whether the call may be answered without running (e.g. `skipped_no_changes`). */
  preflight?: (tool: AnyToolDefinition) => Promise<ToolResult | null>;
  /**
   * Receives progress lines for a live display; `heartbeat` marks the periodic "still running" line of a long child
   * process, which displays may leave out.
   */
  onProgress?: (toolName: string, message: string, kind?: ProgressKind) => void;
  /** Resolves once every other validator of the run has settled (see `ToolContext.whenAlone`). */
  whenAlone?: (toolName: string) => Promise<void>;
  /** Told when a tool reads nothing more from the work tree (see `ToolContext.doneWithWorkTree`). */
  onDoneWithWorkTree?: (toolName: string) => void;
}

export interface ToolExecution {
  toolCallId: string;
  toolName: string;
  title: string;
  result: ToolResult;
  durationMs: number;
  /** When the call started (ISO 8601): where it sits on a run's timeline. */
  startedAt?: string;
  /** Context that hooks added (preToolUse `additionalContext`, postToolUseFailure guidance). */
  additionalContext: string[];
  /** What the call examined when its input narrowed it (`paths: a.js`); null: the whole change set. */
  scope: string | null;
}

/** How long a tool may take to notice its AbortSignal before we stop waiting for it. */
const ABORT_GRACE_MS = 5000;

export function normalizeToolName(name: string): string {
  return name.trim().toLowerCase().replace(/-/g, '_');
}

/**
 * The one path every tool call takes: normalize (name, arguments) → guard (preToolUse hooks, permissions) → run
 * (budget, abort, progress) → complete (postToolUse hooks, `tool.execution_complete`). A tool's failure is a result
 * with a status, never an exception out of here.
 */
export async function executeTool(call: ToolCall, env: PipelineEnvironment): Promise<ToolExecution> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const toolCallId = randomUUID();
  const toolName = normalizeToolName(call.toolName);
  const tool = env.tools.find((candidate) => candidate.name === toolName);
  const additionalContext: string[] = [];
  let scope: string | null = null;

  if (call.userRequested) {
    env.events.emit('tool.user_requested', { toolCallId, toolName, arguments: call.arguments ?? {} });
  }
  env.events.emit('tool.execution_start', {
    toolCallId,
    toolName,
    arguments: call.arguments ?? {},
    ...(call.mcpServerName ? { mcpServerName: call.mcpServerName } : {}),
  });

  const finish = (toolResult: ToolResult): ToolExecution => {
    const durationMs = Math.round(performance.now() - started);
    const success = !FAILURE_STATUSES.has(toolResult.status);
    env.events.emit('tool.execution_complete', {
      toolCallId,
      toolName,
      success,
      durationMs,
      result: toolResult,
      ...(success ? {} : { error: { message: toolResult.summary, code: toolResult.status } }),
    });
    return {
      toolCallId,
      toolName,
      title: tool?.title ?? toolName,
      result: toolResult,
      durationMs,
      startedAt,
      additionalContext,
      scope,
    };
  };

  if (!tool) {
    const known = env.tools.map((candidate) => candidate.name).join(', ');
    return finish(result('invalid_input', `unknown tool ${JSON.stringify(call.toolName)}; expected one of ${known}`));
  }

  let input = parseInput(tool, call.arguments ?? {});
  if (!input.ok) return finish(result('invalid_input', input.message));

  const hookContext = {
    repoRoot: env.repoRoot,
    toolCallId,
    toolName,
    events: env.events,
    signal: env.signal,
    env: env.env,
  };
  const guarded = await guardCall(tool, input.value, { env, hookContext, additionalContext });
  if (!guarded.ok) return finish(guarded.refusal);
  input = { ok: true, value: guarded.input };
  scope = tool.scopeOf?.(input.value) ?? null;

  const skipped = env.preflight ? await env.preflight(tool) : null;
  const toolResult = skipped ?? (await redactResult(await runWithBudget(tool, input.value, { toolCallId, call }, env)));

  await runPostHooks(toolName, input.value, toolResult, { env, hookContext, additionalContext });
  return finish(toolResult);
}

/**
 * The postToolUse hooks (postToolUseFailure on a failure). What any hook added reaches the agent whatever the outcome:
 * a preToolUse or postToolUse hook's context matters on a success as much as postToolUseFailure's guidance on a failure.
 */
async function runPostHooks(
  toolName: string,
  args: unknown,
  toolResult: ToolResult,
  context: { env: PipelineEnvironment; hookContext: HookRunContext; additionalContext: string[] },
): Promise<void> {
  const { env, hookContext, additionalContext } = context;
  const postType: HookType = FAILURE_STATUSES.has(toolResult.status) ? 'postToolUseFailure' : 'postToolUse';
  for (const hook of env.config.hooks[postType].filter((candidate) => hookMatches(candidate, toolName))) {
    const outcome = await runHook(postType, hook, { arguments: args, result: toolResult }, hookContext);
    if (outcome.kind === 'ok') addContext(additionalContext, outcome.reply);
  }
  if (additionalContext.length > 0) {
    const label =
      postType === 'postToolUseFailure'
        ? 'Additional guidance from postToolUseFailure hook'
        : 'Additional context from hooks';
    toolResult.summary = `${toolResult.summary}\n${label}: ${additionalContext.join(' ')}`;
  }
}

/** Whether a postToolUse or postToolUseFailure hook (a command of the user's, run after the tool) matches the tool. */
function hasPostHooks(config: PipelineEnvironment['config'], toolName: string): boolean {
  const { postToolUse, postToolUseFailure } = config.hooks;
  return [...postToolUse, ...postToolUseFailure].some((hook) => hookMatches(hook, toolName));
}

/** A hook's context goes into the printed summary, unless the hook asked that its output be suppressed. */
function addContext(additionalContext: string[], reply: HookReply): void {
  if (reply.additionalContext && !reply.suppressOutput) additionalContext.push(reply.additionalContext);
}

type ParsedInput = { ok: true; value: unknown } | { ok: false; message: string };

/**
 * Guard: the `preToolUse` hooks first (they may deny the call or modify its arguments, which are parsed again), then
 * the permission policy. Returns the input to run with, or the result that refuses the call.
 */
async function guardCall(
  tool: AnyToolDefinition,
  input: unknown,
  context: { env: PipelineEnvironment; hookContext: HookRunContext; additionalContext: string[] },
): Promise<{ ok: true; input: unknown } | { ok: false; refusal: ToolResult }> {
  const { env, hookContext } = context;
  let value = input;
  for (const hook of env.config.hooks.preToolUse.filter((candidate) => hookMatches(candidate, tool.name))) {
    const outcome = await runHook('preToolUse', hook, { arguments: value }, hookContext);
    if (outcome.kind === 'failed') return { ok: false, refusal: result('error', outcome.message) };
    if (outcome.kind === 'denied') {
      return { ok: false, refusal: result('error', `denied by preToolUse hook: ${outcome.reason}`) };
    }
    addContext(context.additionalContext, outcome.reply);
    if (outcome.reply.modifiedArguments) {
      const parsed = parseInput(tool, outcome.reply.modifiedArguments);
      if (!parsed.ok) {
        return {
          ok: false,
          refusal: result('invalid_input', `preToolUse hook modified the arguments: ${parsed.message}`),
        };
      }
      value = parsed.value;
    }
  }
  const permission = checkPermissions({
    toolName: tool.name,
    toolCallId: hookContext.toolCallId,
    required: tool.permissions,
    policy: env.config.permissions,
    events: env.events,
  });
  if (!permission.approved) return { ok: false, refusal: result('error', permission.reason) };
  return { ok: true, input: value };
}

function parseInput(tool: AnyToolDefinition, raw: unknown): ParsedInput {
  // Each tool's input is parsed once per call, most often once per process: zod's compiled fast path would not pay.
  const parsed = (tool.inputSchema as z.ZodType).safeParse(raw, ONE_SHOT);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : '(input)';
  return { ok: false, message: `${tool.name} input ${where}: ${issue?.message ?? 'invalid'}` };
}

async function runWithBudget(
  tool: AnyToolDefinition,
  input: unknown,
  ids: { toolCallId: string; call: ToolCall },
  env: PipelineEnvironment,
): Promise<ToolResult> {
  const { toolCallId } = ids;
  // Through the MCP server, the next step a result names is a tool call; elsewhere a command.
  const reader: ResultReader = ids.call.mcpServerName ? 'mcp' : 'cli';
  const budgetMs = env.deadline - Date.now();
  if (budgetMs <= 0) {
    return result(
      'budget_exhausted',
      'no time left in validation.timeout before this tool could start; do not rerun: raise `validation.timeout` or run fewer tools (--only)',
    );
  }
  const redact = await loadRedactor();
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(env.signal?.reason);
  // A signal aborted before this point never fires its event again: pass that abort on at once.
  if (env.signal?.aborted) onOuterAbort();
  else env.signal?.addEventListener('abort', onOuterAbort, { once: true });
  let timedOut = false;
  const deadlineTimer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('timeout'));
  }, budgetMs);

  const ctx = toolContextFor(tool, input, { toolCallId, reader, env, signal: controller.signal, redact });

  const timeoutResult = () =>
    result(
      'timeout',
      `timed out after ${formatDuration(budgetMs)} (validation.timeout); do not rerun: split the change or raise \`validation.timeout\``,
    );
  // The caller stopped the run (an MCP client's cancellation): whatever the tool made of its abort, it did not finish,
  // so nothing was decided. Never `timeout` (no budget ran out) nor a pass the tool reported on its way out.
  const cancelledResult = () =>
    result('incomplete', `Interrupted: the call was cancelled before ${tool.name} finished; nothing was decided.`);
  try {
    const running = tool.run(ctx);
    const outcome = await Promise.race([running, abortedAfterGrace(controller.signal)]);
    if (timedOut) return timeoutResult();
    if (env.signal?.aborted) return cancelledResult();
    if (outcome === ABANDONED) return result('error', 'the run was interrupted before the tool finished');
    return outcome;
  } catch (error) {
    if (timedOut) return timeoutResult();
    if (env.signal?.aborted) return cancelledResult();
    if (isTollgateError(error)) return result('error', error.message);
    return result('error', `internal error in ${tool.name}: ${errorMessage(error).split('\n')[0]}`);
  } finally {
    clearTimeout(deadlineTimer);
    env.signal?.removeEventListener('abort', onOuterAbort);
  }
}

/** What a tool's `run` gets: the shared change set, its options and input, its signal, budget, and masked progress. */
function toolContextFor(
  tool: AnyToolDefinition,
  input: unknown,
  call: {
    toolCallId: string;
    reader: ResultReader;
    env: PipelineEnvironment;
    signal: AbortSignal;
    redact: (text: string) => string;
  },
): ToolContext<unknown, unknown> {
  const { toolCallId, env, redact } = call;
  const artifactsDir = join(env.runDir, tool.name);
  mkdirSync(artifactsDir, { recursive: true, mode: 0o700 });
  const budget: Budget = { deadline: env.deadline, remainingMs: () => Math.max(0, env.deadline - Date.now()) };
  return {
    repoRoot: env.repoRoot,
    changeSet: env.changeSet,
    options: env.config[tool.configKey],
    input,
    signal: call.signal,
    budget,
    artifactsDir,
    concurrency: env.config.validation.concurrency,
    skipTrivial: env.config.validation.skipTrivial.includes(tool.name),
    reader: call.reader,
    network: env.config.permissions.network,
    env: env.env ?? process.env,
    ...(env.policy ? { policy: env.policy } : {}),
    whenAlone: () => env.whenAlone?.(tool.name) ?? Promise.resolve(),
    ...(env.onDoneWithWorkTree && !hasPostHooks(env.config, tool.name)
      ? { doneWithWorkTree: () => env.onDoneWithWorkTree?.(tool.name) }
      : {}),
    progress: (raw) => {
      // Progress quotes commands and output (a check's `run` line can hold a token): masked like everything else.
      const message = redact(raw);
      env.events.emit('tool.execution_progress', { toolCallId, progressMessage: message }, { ephemeral: true });
      env.onProgress?.(tool.name, message);
    },
    runProcess: withHeartbeat(
      (command, args, options) =>
        runProcess(command, args, {
          ...options,
          signal: options.signal ?? call.signal,
          // Only the program's name: a check's command line can hold a token.
          ledger: { record: ledgerFor(env.repoRoot), label: `${tool.name}: ${basename(command)}` },
        }),
      heartbeatInterval(env.env ?? process.env),
      // Heartbeats quote output lines: masked. The output since the last beat is a partial result: an ephemeral event
      // (persisted only with --verbose) that a live display or an MCP client can show while a long check runs.
      (message, partialOutput) => {
        env.onProgress?.(tool.name, redact(message), 'heartbeat');
        if (partialOutput !== '') {
          env.events.emit('tool.execution_partial_result', { toolCallId, partialOutput: redact(partialOutput) });
        }
      },
    ),
  };
}

const ABANDONED = Symbol('abandoned');

/** Resolves a while after the signal aborts, so a tool that ignores its signal cannot hold the run hostage. */
function abortedAfterGrace(signal: AbortSignal): Promise<typeof ABANDONED> {
  return new Promise((resolve) => {
    const arm = () => setTimeout(() => resolve(ABANDONED), ABORT_GRACE_MS).unref();
    if (signal.aborted) arm();
    else signal.addEventListener('abort', arm, { once: true });
  });
}
