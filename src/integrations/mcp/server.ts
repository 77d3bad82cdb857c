import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { loadConfig, parseConfigText } from '../../core/config/load.js';
import { lookUpRegistries } from '../../core/config/registries.js';
import { findRepoRoot } from '../../core/config/repo-root.js';
import type { TollgateConfig } from '../../core/config/schema.js';
import type { AnyToolDefinition } from '../../core/pipeline/tool.js';
import { statusEntry } from './status-tool.js';
import { ToolCatalog, type ToolEntry } from './tool-catalog.js';
import { configLoader, guardedCall, type ToolContext } from './tool-context.js';
import { planValidationTools } from './tool-plan.js';
import { MCP_SERVER_NAME, validationEntry } from './validation-tool.js';

export { MCP_SERVER_NAME } from './validation-tool.js';

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
 * `tools/call` as the transport layer accepts it: only the method. The SDK's server then checks the params against
 * the MCP schema, so a call whose `arguments` is not an object is a JSON-RPC invalid-params error (-32602), not an
 * internal error.
 */
const anyToolCall = z.object({ method: z.literal('tools/call'), params: z.unknown() });

/**
 * The MCP server: one tool per validation plan (see `planValidationTools`) plus `validation_status`, following the
 * config as it changes (`notifications/tools/list_changed`). Every call runs through the tool pipeline with
 * `mcpServerName` provenance, and every failure of a call comes back as a result, never as a crashed server. A name
 * this server never offered is a JSON-RPC error (-32602), as the MCP spec asks.
 */
export async function createTollgateMcpServer(options: TollgateMcpServerOptions): Promise<Server> {
  const { validators, validatorsFor } = await import('../../validators/index.js');
  const registry = options.registry ?? validators;
  const sessionId = options.sessionId ?? options.env.TOLLGATE_SESSION_ID ?? `${Date.now()}-${randomUUID().slice(0, 8)}`;
  const log = options.log ?? ((line: string) => void process.stderr.write(`tollgate mcp: ${line}\n`));
  const server = new Server(
    { name: MCP_SERVER_NAME, version: options.version },
    { capabilities: { tools: { listChanged: true } }, instructions: await instructionsFor(options) },
  );
  const catalog = new ToolCatalog(() => {
    // Only a connected, initialised client can be told; one that is not will list the tools anyway.
    if (server.getClientCapabilities()) server.sendToolListChanged().catch(() => {});
  });
  const loadFor = configLoader({ server, cwd: options.cwd, env: options.env, registry, repoRoot: options.repoRoot });
  const context: ToolContext = {
    server,
    cwd: options.cwd,
    env: options.env,
    version: options.version,
    registry,
    registryFor: (config) => validatorsFor(config, registry),
    sessionId,
    heartbeatMs: options.heartbeatMs ?? heartbeatFromEnv(options.env),
    loadFor,
    guarded: guardedCall({ log, env: options.env }),
    refresh: (config) => catalog.replace(entriesFor(context, config)),
  };
  context.refresh(await startupConfig(options, registry));

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    try {
      context.refresh((await loadFor()).loaded.config);
    } catch {
      // No repository or a broken config right now: keep offering what was offered; a call reports the problem.
    }
    return { tools: catalog.list() };
  });
  server.setRequestHandler(anyToolCall, async (request, extra) => {
    const { name, arguments: args } = CallToolRequestSchema.parse(request).params;
    const entry = catalog.find(name);
    if (!entry) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}. Tools: ${catalog.names().join(', ')}`);
    }
    return entry.call(args ?? {}, extra);
  });
  return server;
}

const INSTRUCTIONS = 'Validate changes with these tools before declaring work done.';

/** The server's instructions, led by what a person must do when the agent's stop hook cannot be run (Codex's trust). */
async function instructionsFor(options: TollgateMcpServerOptions): Promise<string> {
  const home = options.env.HOME ?? options.env.USERPROFILE;
  if (!home) return INSTRUCTIONS;
  const repoRoot = options.repoRoot ?? (await findRepoRoot(options.cwd, options.env).catch(() => null));
  const { codexTrustNotice } = await import('../hooks/codex-trust-notice.js');
  return (await codexTrustNotice({ repoRoot, home })) ?? INSTRUCTIONS;
}

/** The tools one config gives: its validation plans, then `validation_status`. */
function entriesFor(context: ToolContext, config: TollgateConfig): ToolEntry[] {
  const plans = planValidationTools(context.registryFor(config), config);
  return [...plans.map((plan) => validationEntry(context, plan, config)), statusEntry(context)];
}

/** The config the first `tools/list` follows: the repository's, or the defaults outside a repository. */
async function startupConfig(
  options: TollgateMcpServerOptions,
  registry: readonly AnyToolDefinition[],
): Promise<TollgateConfig> {
  try {
    const repoRoot = options.repoRoot ?? (await findRepoRoot(options.cwd, options.env));
    return (await loadConfig({ repoRoot, cwd: options.cwd, env: options.env, tools: registry })).config;
  } catch {
    // No repository or a broken config yet: offer the defaults; each call reports the real problem.
    const loaded = parseConfigText({
      text: '',
      file: null,
      env: options.env,
      registries: { ...(await lookUpRegistries()), tools: registry },
    });
    return loaded.config;
  }
}

function heartbeatFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = Number(env.TOLLGATE_MCP_HEARTBEAT_MS);
  return Number.isInteger(raw) && raw > 0 ? raw : DEFAULT_HEARTBEAT_MS;
}
