import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { formatDuration } from '../../core/config/duration.js';
import { type LoadedConfig, loadConfig, parseConfigText } from '../../core/config/load.js';
import { lookUpRegistries } from '../../core/config/registries.js';
import { findRepoRoot } from '../../core/config/repo-root.js';
import { errorMessage, isTollgateError } from '../../core/errors.js';
import type { AnyToolDefinition } from '../../core/pipeline/tool.js';
import { readGateStatus } from '../../core/run/gate-status.js';
import { runParallelValidation } from '../../core/run/parallel-validation.js';
import { readSession } from '../../core/run/session-store.js';
import { parallelInputSchema, trivialDeclarationSchema } from '../../core/run/trivial-declarations.js';
import { runValidationCall } from '../../core/run/validation-call.js';
import type { TrivialDeclaration } from '../../core/telemetry/index.js';
import { describeValidationTool, VALIDATION_STATUS_DESCRIPTION } from './descriptions.js';
import { errorResult, validationOutputShape, validationResult } from './result-content.js';
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

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * The MCP server: one tool per validation plan (see `planValidationTools`) plus `validation_status`. Every call runs
 * through the tool pipeline with `mcpServerName` provenance, and every failure comes back as a result, never as a
 * crashed server.
 */
export async function createTollgateMcpServer(options: TollgateMcpServerOptions): Promise<McpServer> {
  const registry = options.registry ?? (await import('../../validators/index.js')).validators;
  const sessionId = options.sessionId ?? options.env.TOLLGATE_SESSION_ID ?? `${Date.now()}-${randomUUID().slice(0, 8)}`;
  const log = options.log ?? ((line: string) => void process.stderr.write(`tollgate mcp: ${line}\n`));
  const heartbeatMs = options.heartbeatMs ?? heartbeatFromEnv(options.env);
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: options.version },
    { capabilities: { tools: {} }, instructions: 'Validate changes with these tools before declaring work done.' },
  );

  // Input is validated inside the tool pipeline instead of by the SDK, so a bad field becomes an `invalid_input`
  // result with the field's path, a `tool.execution_complete` event and telemetry, like any other call. The schemas
  // registered below are still the ones `tools/list` advertises.
  (server as unknown as { validateToolInput: (tool: unknown, args: unknown) => Promise<unknown> }).validateToolInput =
    async (_tool, args) => args ?? {};

  let repoRootCache: string | undefined = options.repoRoot;
  const resolveRepoRoot = async (): Promise<string> => {
    if (repoRootCache) return repoRootCache;
    try {
      repoRootCache = await findRepoRoot(options.cwd, options.env);
      return repoRootCache;
    } catch (error) {
      // Started outside the project (some clients start servers in $HOME): ask the client for its roots.
      const fromRoots = await repoFromClientRoots(server, options.env);
      if (!fromRoots) throw error;
      repoRootCache = fromRoots;
      return fromRoots;
    }
  };
  const loadFor = async (): Promise<{ repoRoot: string; loaded: LoadedConfig }> => {
    const repoRoot = await resolveRepoRoot();
    return { repoRoot, loaded: await loadConfig({ repoRoot, cwd: options.cwd, env: options.env, tools: registry }) };
  };

  const guarded = async (name: string, run: () => Promise<CallToolResult>): Promise<CallToolResult> => {
    try {
      return await run();
    } catch (error) {
      if (isTollgateError(error)) return errorResult(`${name}: ${error.message}`);
      log(`internal error in ${name}: ${errorMessage(error).split('\n')[0]}`);
      if (options.env.TOLLGATE_DEBUG === '1' && error instanceof Error && error.stack) log(error.stack);
      return errorResult(
        `${name}: internal error in tollgate (${errorMessage(error).split('\n')[0]}); run \`tollgate run\` in a terminal to see it`,
      );
    }
  };

  const startup = await startupPlans(options, registry);
  for (const plan of startup) {
    const inputSchema = plan.kind === 'parallel' ? parallelInputSchema(plan.tools) : plan.tool.inputSchema;
    server.registerTool(
      plan.name,
      {
        title: plan.kind === 'parallel' ? 'Parallel validation' : plan.tool.title,
        description: describeValidationTool(plan),
        inputSchema: advertisedObject(inputSchema, plan.name),
        outputSchema: validationOutputShape,
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      ((args: unknown, extra: Extra) =>
        guarded(plan.name, async () => {
          const { repoRoot, loaded } = await loadFor();
          const current = planValidationTools(registry, loaded.config).find(
            (candidate) => candidate.name === plan.name,
          );
          if (!current) {
            return errorResult(
              `${plan.name} is no longer active: the config changed since the server started (enable it again with \`validation.<name>.enabled\`, or restart the agent)`,
            );
          }
          const progress = progressReporter(extra);
          progress.send('tollgate', `starting ${plan.name}`);
          const running = current.kind === 'parallel' ? current.tools.map((tool) => tool.name) : [current.tool.name];
          const stopHeartbeat = progress.heartbeat(heartbeatMs, running);
          const common = {
            repoRoot,
            config: loaded.config,
            configHash: loaded.hash,
            registry,
            sessionId,
            mcpServerName: MCP_SERVER_NAME,
            version: options.version,
            signal: extra.signal,
            env: options.env,
            onProgress: progress.send,
          };
          let outcome: Awaited<ReturnType<typeof runValidationCall>>;
          try {
            outcome =
              current.kind === 'parallel'
                ? await runParallelValidation({ ...common, active: current.tools, input: args })
                : await runValidationCall({
                    ...common,
                    callName: current.name,
                    calls: [{ tool: current.tool, arguments: args ?? {} }],
                    declarations: declarationOf(current.tool, args),
                    complete: current.coversAll,
                  });
          } finally {
            stopHeartbeat();
          }
          await progress.flush();
          return validationResult(plan.name, outcome);
        })) as never,
    );
  }

  server.registerTool(
    'validation_status',
    {
      title: 'Validation status',
      description: VALIDATION_STATUS_DESCRIPTION,
      inputSchema: statusInputSchema,
      outputSchema: statusOutputShape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ((args: unknown) =>
      guarded('validation_status', async () => {
        const input = statusInputSchema.safeParse(args ?? {});
        if (!input.success) {
          const fields = Object.keys((args ?? {}) as object).join(', ');
          return errorResult(
            `validation_status input: takes no arguments (got ${fields || 'a non-object'}); call it with {}`,
          );
        }
        const { repoRoot, loaded } = await loadFor();
        const status = await readGateStatus({
          repoRoot,
          config: loaded.config,
          configHash: loaded.hash,
          tools: registry,
        });
        const session = readSession(repoRoot, `mcp-${sessionId}`);
        const plans = planValidationTools(registry, loaded.config);
        const callName = plans[0]?.name ?? null;
        const structuredContent = {
          state: status.state,
          fingerprint: status.fingerprint,
          changedFiles: status.changedFiles,
          enabledTools: status.enabledTools,
          lastRunId: status.verdict?.runId ?? null,
          unresolvedFindings: status.unresolvedFindings,
          budgetRemainingMs: Math.max(0, loaded.config.validation.timeout - session.budgetUsedMs),
          consecutiveTimeouts: session.consecutiveTimeouts,
          next:
            status.state === 'validated'
              ? 'Validation has passed on the current change; it may be declared done.'
              : `Call \`${callName ?? 'tollgate run'}\` to validate the current change.`,
        };
        return {
          content: [{ type: 'text', text: `${structuredContent.next}\n${JSON.stringify(structuredContent, null, 2)}` }],
          structuredContent,
        };
      })) as never,
  );
  return server;
}

const statusInputSchema = z.object({}).strict();

const statusOutputShape = {
  state: z.enum(['validated', 'failed', 'stale', 'never']),
  fingerprint: z.string(),
  changedFiles: z.number(),
  enabledTools: z.array(z.string()),
  lastRunId: z.string().nullable(),
  unresolvedFindings: z.number(),
  budgetRemainingMs: z.number(),
  consecutiveTimeouts: z.number(),
  next: z.string(),
};

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

/**
 * Progress notifications, only when the client sent a progress token; `progress` increases with every message.
 * Sends are chained so they arrive in order, and failures are dropped (progress is advisory). While validators run, a
 * heartbeat repeats which are running and for how long, so a client that resets its timeout on progress does not
 * give up on a slow but healthy validator.
 */
function progressReporter(extra: Extra): {
  send: (source: string, message: string) => void;
  heartbeat: (intervalMs: number, tools: readonly string[]) => () => void;
  flush: () => Promise<void>;
} {
  const token = extra._meta?.progressToken;
  let chain: Promise<void> = Promise.resolve();
  let progress = 0;
  const send = (source: string, message: string) => {
    if (token === undefined || extra.signal.aborted) return;
    progress += 1;
    const params = { progressToken: token, progress, message: `${source}: ${message}` };
    chain = chain.then(() => extra.sendNotification({ method: 'notifications/progress', params })).catch(() => {});
  };
  return {
    send,
    heartbeat: (intervalMs, tools) => {
      if (token === undefined) return () => {};
      const started = Date.now();
      const timer = setInterval(() => {
        send('tollgate', `still running ${tools.join(', ')} (${formatDuration(Date.now() - started)} elapsed)`);
      }, intervalMs);
      return () => clearInterval(timer);
    },
    flush: () => chain,
  };
}

async function repoFromClientRoots(server: McpServer, env: NodeJS.ProcessEnv): Promise<string | null> {
  if (!server.server.getClientCapabilities()?.roots) return null;
  try {
    const { roots } = await server.server.listRoots();
    for (const root of roots) {
      if (!root.uri.startsWith('file:')) continue;
      try {
        return await findRepoRoot(fileURLToPath(root.uri), env);
      } catch {
        // Not a repository; try the next root.
      }
    }
  } catch {
    // The client announced roots but could not list them.
  }
  return null;
}
