import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { loadConfig, parseConfigText } from '../../core/config/load.js';
import { lookUpRegistries } from '../../core/config/registries.js';
import { findRepoRoot } from '../../core/config/repo-root.js';
import type { AnyToolDefinition } from '../../core/pipeline/tool.js';
import { runParallelValidation } from '../../core/run/parallel-validation.js';
import { parallelInputSchema, trivialDeclarationSchema } from '../../core/run/trivial-declarations.js';
import { runValidationCall } from '../../core/run/validation-call.js';
import type { TrivialDeclaration } from '../../core/telemetry/index.js';
import { describeValidationTool } from './descriptions.js';
import { type McpCallExtra, type ProgressReporter, progressReporter } from './progress.js';
import { errorResult, validationOutputShape, validationResult } from './result-content.js';
import { registerStatusTool } from './status-tool.js';
import { configLoader, guardedCall, type LoadedRepo, type ToolContext } from './tool-context.js';
import { planValidationTools, type ValidationToolPlan } from './tool-plan.js';

/** The name agents know this server by (`mcp__tollgate__parallel_validation`), and the events' `mcpServerName`. */
export const MCP_SERVER_NAME = 'tollgate';

export interface TollgateMcpServerOptions {
  /** Where the server was started; its repository is the one validated (unless `repoRoot` is given). */
  cwd: string;
  env: NodeJS.ProcessEnv;
  version: string;
  /** The validators; default the registry. */
  registry?: readonly AnyToolDefinition[];
  /** `tollgate mcp --repo DIR`. */
  repoRoot?: string;
  /** Keys the session's budget and circuit breaker; default a fresh id per server process (= per agent session). */
  sessionId?: string;
  /** Diagnostics; never stdout, which carries JSON-RPC only. Default: stderr. */
  log?: (line: string) => void;
  /**
   * Milliseconds between heartbeat progress notifications while validators run; default `TOLLGATE_MCP_HEARTBEAT_MS`,
   * else 5 s.
   */
  heartbeatMs?: number;
}

/** Clients that reset their request timeout on progress (`resetTimeoutOnProgress`) need a sign of life this often. */
const DEFAULT_HEARTBEAT_MS = 5_000;

/**
 * The MCP server: one tool per validation plan (see `planValidationTools`) plus `validation_status`. Every call runs
 * through the tool pipeline with `mcpServerName` provenance, and every failure comes back as a result, never as a
 * crashed server.
 */
export async function createTollgateMcpServer(options: TollgateMcpServerOptions): Promise<McpServer> {
  const registry = options.registry ?? (await import('../../validators/index.js')).validators;
  const sessionId = options.sessionId ?? options.env.TOLLGATE_SESSION_ID ?? `${Date.now()}-${randomUUID().slice(0, 8)}`;
  const log = options.log ?? ((line: string) => void process.stderr.write(`tollgate mcp: ${line}\n`));
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: options.version },
    { capabilities: { tools: {} }, instructions: 'Validate changes with these tools before declaring work done.' },
  );
  skipSdkInputValidation(server);

  const context: ToolContext = {
    server,
    cwd: options.cwd,
    env: options.env,
    version: options.version,
    registry,
    sessionId,
    heartbeatMs: options.heartbeatMs ?? heartbeatFromEnv(options.env),
    loadFor: configLoader({ server, cwd: options.cwd, env: options.env, registry, repoRoot: options.repoRoot }),
    guarded: guardedCall({ log, env: options.env }),
  };
  for (const plan of await startupPlans(options, registry)) registerValidationTool(context, plan);
  registerStatusTool(context);
  return server;
}

/**
 * Input is validated inside the tool pipeline instead of by the SDK, so a bad field becomes an `invalid_input` result
 * with the field's path, a `tool.execution_complete` event and telemetry, like any other call. The schemas registered
 * with the tools are still the ones `tools/list` advertises.
 */
function skipSdkInputValidation(server: McpServer): void {
  (server as unknown as { validateToolInput: (tool: unknown, args: unknown) => Promise<unknown> }).validateToolInput =
    async (_tool, args) => args ?? {};
}

function registerValidationTool(context: ToolContext, plan: ValidationToolPlan): void {
  const inputSchema = plan.kind === 'parallel' ? parallelInputSchema(plan.tools) : plan.tool.inputSchema;
  context.server.registerTool(
    plan.name,
    {
      title: plan.kind === 'parallel' ? 'Parallel validation' : plan.tool.title,
      description: describeValidationTool(plan),
      inputSchema: advertisedObject(inputSchema, plan.name),
      outputSchema: validationOutputShape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ((args: unknown, extra: McpCallExtra) =>
      context.guarded(plan.name, () => validationCall({ context, name: plan.name, args, extra }))) as never,
  );
}

interface ValidationCallOptions {
  context: ToolContext;
  name: string;
  args: unknown;
  extra: McpCallExtra;
}

/** One call of a validation tool, against the plan the current config gives it (the config may have changed). */
async function validationCall(options: ValidationCallOptions): Promise<CallToolResult> {
  const { context, name, args, extra } = options;
  const { repoRoot, loaded } = await context.loadFor();
  const current = planValidationTools(context.registry, loaded.config).find((candidate) => candidate.name === name);
  if (!current) {
    return errorResult(
      `${name} is no longer active: the config changed since the server started (enable it again with \`validation.<name>.enabled\`, or restart the agent)`,
    );
  }
  const progress = progressReporter(extra);
  progress.send('tollgate', `starting ${name}`);
  const running = current.kind === 'parallel' ? current.tools.map((tool) => tool.name) : [current.tool.name];
  const stopHeartbeat = progress.heartbeat(context.heartbeatMs, running);
  let outcome: ValidationOutcome;
  try {
    outcome = await runPlan({ context, plan: current, args, repoRoot, loaded, signal: extra.signal, progress });
  } finally {
    stopHeartbeat();
  }
  await progress.flush();
  return validationResult(name, outcome);
}

type ValidationOutcome = Awaited<ReturnType<typeof runValidationCall>>;

interface RunPlanOptions extends LoadedRepo {
  context: ToolContext;
  plan: ValidationToolPlan;
  args: unknown;
  signal: AbortSignal;
  progress: ProgressReporter;
}

/** Runs the plan's validators through the tool pipeline, with this server's provenance. */
function runPlan(options: RunPlanOptions): Promise<ValidationOutcome> {
  const { context, plan, args, loaded } = options;
  const common = {
    repoRoot: options.repoRoot,
    config: loaded.config,
    configHash: loaded.hash,
    ...(loaded.policy ? { policy: loaded.policy } : {}),
    registry: context.registry,
    sessionId: context.sessionId,
    mcpServerName: MCP_SERVER_NAME,
    version: context.version,
    signal: options.signal,
    env: context.env,
    onProgress: options.progress.send,
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

/** The plans `tools/list` offers: from the repository's config at startup, or the defaults outside a repository. */
async function startupPlans(
  options: TollgateMcpServerOptions,
  registry: readonly AnyToolDefinition[],
): Promise<ValidationToolPlan[]> {
  try {
    const repoRoot = options.repoRoot ?? (await findRepoRoot(options.cwd, options.env));
    const loaded = await loadConfig({ repoRoot, cwd: options.cwd, env: options.env, tools: registry });
    return planValidationTools(registry, loaded.config);
  } catch {
    // No repository or a broken config yet: offer the defaults; each call reports the real problem.
    const loaded = parseConfigText({
      text: '',
      file: null,
      env: options.env,
      registries: { ...(await lookUpRegistries()), tools: registry },
    });
    return planValidationTools(registry, loaded.config);
  }
}

/** A single validator's own declaration, when its input carries one, for telemetry. */
function declarationOf(tool: AnyToolDefinition, args: unknown): Map<string, TrivialDeclaration> {
  const raw = (args as { trivialChangeDeclaration?: unknown } | undefined)?.trivialChangeDeclaration;
  const parsed = trivialDeclarationSchema.safeParse(raw);
  return parsed.success ? new Map([[tool.name, parsed.data]]) : new Map();
}

/**
 * The object schema `tools/list` advertises for a tool's input. The SDK converts only a bare object schema and
 * advertises `{}` for anything wrapped (`.prefault({})`, `.default()`, `.optional()`, a pipe), which would hide every
 * argument; the wrapped schema still parses the call, in the tool pipeline.
 */
function advertisedObject(schema: unknown, name: string): z.ZodObject {
  let current = schema as z.ZodType;
  for (let depth = 0; depth < 10; depth++) {
    if (current instanceof z.ZodObject) return current;
    const def = (current as { _zod: { def: { type: string; innerType?: z.ZodType; in?: z.ZodType } } })._zod.def;
    const inner = def.type === 'pipe' ? def.in : def.innerType;
    if (!inner) break;
    current = inner;
  }
  throw new Error(`${name}: its input schema is not an object schema, so MCP clients could not be told its arguments`);
}

function heartbeatFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = Number(env.TOLLGATE_MCP_HEARTBEAT_MS);
  return Number.isInteger(raw) && raw > 0 ? raw : DEFAULT_HEARTBEAT_MS;
}
