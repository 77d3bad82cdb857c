import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { isToolEnabled, type TollgateConfig } from '../../core/config/schema.js';
import type { AnyToolDefinition } from '../../core/pipeline/tool.js';
import { PARALLEL_VALIDATION, runParallelValidation } from '../../core/run/parallel-validation.js';
import { declarationKey, parallelInputSchema, trivialDeclarationSchema } from '../../core/run/trivial-declarations.js';
import { runValidationCall } from '../../core/run/validation-call.js';
import type { TrivialDeclaration } from '../../core/telemetry/index.js';
import { describeValidationTool } from './descriptions.js';
import { type McpCallExtra, type ProgressReporter, progressReporter } from './progress.js';
import { validationOutputShape, validationResult } from './result-content.js';
import { advertisedObject, type ToolEntry } from './tool-catalog.js';
import type { LoadedRepo, ToolContext } from './tool-context.js';
import { annotationsOf, mcpNameOf, planValidationTools, type ValidationToolPlan } from './tool-plan.js';

/** The name agents know this server by (`mcp__tollgate__parallel_validation`), and the events' `mcpServerName`. */
export const MCP_SERVER_NAME = 'tollgate';

const outputSchema = z.object(validationOutputShape);

/** The tool entry of one validation plan. */
export function validationEntry(context: ToolContext, plan: ValidationToolPlan, config: TollgateConfig): ToolEntry {
  const inputSchema = plan.kind === 'parallel' ? parallelInputSchema(plan.tools) : plan.tool.inputSchema;
  return {
    name: plan.name,
    title: plan.kind === 'parallel' ? 'Parallel validation' : plan.tool.title,
    description: describeValidationTool(plan),
    inputSchema: advertisedObject(inputSchema, plan.name),
    outputSchema,
    annotations: annotationsOf(plan, config),
    call: (args, extra) => context.guarded(plan.name, () => validationCall({ context, name: plan.name, args, extra })),
  };
}

interface ValidationCallOptions {
  context: ToolContext;
  name: string;
  args: unknown;
  extra: McpCallExtra;
}

/** One call of a validation tool, against the plan the current config gives it (the config may have changed). */
async function validationCall(options: ValidationCallOptions): Promise<CallToolResult> {
  const { context, name, extra } = options;
  const { repoRoot, loaded } = await context.loadFor();
  context.refresh(loaded.config);
  const registry = context.registryFor(loaded.config);
  const plan = currentPlan(registry, loaded.config, name);
  const args =
    plan.kind === 'parallel' ? withoutInactiveDeclarations(options.args, registry, plan.tools) : options.args;
  const progress = progressReporter(extra);
  progress.send('tollgate', `starting ${name}`);
  const running = new Set(plan.kind === 'parallel' ? plan.tools.map((tool) => tool.name) : [plan.tool.name]);
  const stopHeartbeat = progress.heartbeat(context.heartbeatMs, () => [...running]);
  let outcome: ValidationOutcome;
  try {
    outcome = await runPlan({
      context,
      registry,
      plan,
      args,
      repoRoot,
      loaded,
      signal: extra.signal,
      progress,
      onToolDone: (tool) => running.delete(tool),
    });
  } finally {
    stopHeartbeat();
  }
  await progress.flush();
  return validationResult(name, outcome);
}

/**
 * The plan a call runs under the config as it is now. A tool advertised under an earlier config still runs: the
 * wrapper over whatever validators are active now; a validator's own tool as that validator alone, which covers the
 * gate only when it is the only active one.
 */
function currentPlan(registry: readonly AnyToolDefinition[], config: TollgateConfig, name: string): ValidationToolPlan {
  const current = planValidationTools(registry, config).find((candidate) => candidate.name === name);
  if (current) return current;
  const active = registry.filter((tool) => isToolEnabled(config, tool));
  const tool = registry.find((candidate) => mcpNameOf(candidate) === name);
  if (name === PARALLEL_VALIDATION || !tool) return { kind: 'parallel', name: PARALLEL_VALIDATION, tools: active };
  return { kind: 'single', name, tool, coversAll: active.length === 1 && active[0] === tool };
}

/**
 * Declarations for validators that are not active now: they were advertised under an earlier config, and there is
 * nothing to declare them for, so they are dropped rather than refused as unknown keys.
 */
function withoutInactiveDeclarations(
  args: unknown,
  registry: readonly AnyToolDefinition[],
  active: readonly AnyToolDefinition[],
): unknown {
  const declarations = (args as { trivialChangeDeclaration?: unknown } | null | undefined)?.trivialChangeDeclaration;
  if (typeof declarations !== 'object' || declarations === null || Array.isArray(declarations)) return args;
  const inactive = new Set(registry.filter((tool) => !active.includes(tool)).map((tool) => declarationKey(tool.name)));
  const kept = Object.entries(declarations).filter(([key]) => !inactive.has(key));
  return { ...(args as object), trivialChangeDeclaration: Object.fromEntries(kept) };
}

type ValidationOutcome = Awaited<ReturnType<typeof runValidationCall>>;

interface RunPlanOptions extends LoadedRepo {
  context: ToolContext;
  /** The validators of this call's config. */
  registry: readonly AnyToolDefinition[];
  plan: ValidationToolPlan;
  args: unknown;
  signal: AbortSignal;
  progress: ProgressReporter;
  onToolDone: (toolName: string) => void;
}

/** Runs the plan's validators through the tool pipeline, with this server's provenance. */
function runPlan(options: RunPlanOptions): Promise<ValidationOutcome> {
  const { context, plan, args, loaded } = options;
  const common = {
    repoRoot: options.repoRoot,
    config: loaded.config,
    configHash: loaded.hash,
    ...(loaded.policy ? { policy: loaded.policy } : {}),
    registry: options.registry,
    sessionId: context.sessionId,
    mcpServerName: MCP_SERVER_NAME,
    version: context.version,
    signal: options.signal,
    env: context.env,
    onProgress: options.progress.send,
    onToolDone: options.onToolDone,
  };
  if (plan.kind === 'parallel') return runParallelValidation({ ...common, active: plan.tools, input: args });
  return runValidationCall({
    ...common,
    callName: plan.name,
    calls: [{ tool: plan.tool, arguments: args ?? {} }],
    declarations: declarationOf(plan.tool, args),
    complete: plan.coversAll,
  });
}

/** A single validator's own declaration, when its input carries one, for telemetry. */
function declarationOf(tool: AnyToolDefinition, args: unknown): Map<string, TrivialDeclaration> {
  const raw = (args as { trivialChangeDeclaration?: unknown } | undefined)?.trivialChangeDeclaration;
  const parsed = trivialDeclarationSchema.safeParse(raw);
  return parsed.success ? new Map([[tool.name, parsed.data]]) : new Map();
}
