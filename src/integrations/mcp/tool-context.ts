import { fileURLToPath } from 'node:url';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type LoadedConfig, loadConfig } from '../../core/config/load.js';
import { findRepoRoot } from '../../core/config/repo-root.js';
import type { TollgateConfig } from '../../core/config/schema.js';
import { errorMessage, isTollgateError } from '../../core/errors.js';
import type { AnyToolDefinition } from '../../core/pipeline/tool.js';
import { errorResult } from './result-content.js';

export interface LoadedRepo {
  repoRoot: string;
  loaded: LoadedConfig;
}

/** What every tool handler of one server shares. */
export interface ToolContext {
  server: Server;
  cwd: string;
  env: NodeJS.ProcessEnv;
  version: string;
  registry: readonly AnyToolDefinition[];
  /** The validators a config runs: `registry` and the ones the config declares (`validators:`). */
  registryFor: (config: TollgateConfig) => readonly AnyToolDefinition[];
  sessionId: string;
  heartbeatMs: number;
  /** The repository and its config as they are now: read on every call, so config edits apply without a restart. */
  loadFor: () => Promise<LoadedRepo>;
  /** Runs a handler so that any failure comes back as a result, never as a crashed server. */
  guarded: (name: string, run: () => Promise<CallToolResult>) => Promise<CallToolResult>;
  /** Offers the tools this config gives (a call read it anyway); the client is told when the list changed. */
  refresh: (config: TollgateConfig) => void;
}

export interface ConfigLoaderOptions {
  server: Server;
  cwd: string;
  env: NodeJS.ProcessEnv;
  registry: readonly AnyToolDefinition[];
  repoRoot?: string | undefined;
}

/** Finds the repository once (then caches it) and loads its config on every call. */
export function configLoader(options: ConfigLoaderOptions): () => Promise<LoadedRepo> {
  const resolveRepoRoot = repoRootResolver(options);
  return async () => {
    const repoRoot = await resolveRepoRoot();
    return {
      repoRoot,
      loaded: await loadConfig({ repoRoot, cwd: options.cwd, env: options.env, tools: options.registry }),
    };
  };
}

function repoRootResolver(options: ConfigLoaderOptions): () => Promise<string> {
  let repoRootCache: string | undefined = options.repoRoot;
  return async () => {
    if (repoRootCache) return repoRootCache;
    try {
      repoRootCache = await findRepoRoot(options.cwd, options.env);
      return repoRootCache;
    } catch (error) {
      // Started outside the project (some clients start servers in $HOME): ask the client for its roots.
      const fromRoots = await repoFromClientRoots(options.server, options.env);
      if (!fromRoots) throw error;
      repoRootCache = fromRoots;
      return fromRoots;
    }
  };
}

async function repoFromClientRoots(server: Server, env: NodeJS.ProcessEnv): Promise<string | null> {
  if (!server.getClientCapabilities()?.roots) return null;
  try {
    const { roots } = await server.listRoots();
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

/** A tollgate error becomes its message; anything else is logged and reported as an internal error. */
export function guardedCall(options: { log: (line: string) => void; env: NodeJS.ProcessEnv }): ToolContext['guarded'] {
  const { log, env } = options;
  return async (name, run) => {
    try {
      return await run();
    } catch (error) {
      if (isTollgateError(error)) return errorResult(`${name}: ${error.message}`);
      log(`internal error in ${name}: ${errorMessage(error).split('\n')[0]}`);
      if (env.TOLLGATE_DEBUG === '1' && error instanceof Error && error.stack) log(error.stack);
      return errorResult(
        `${name}: internal error in tollgate (${errorMessage(error).split('\n')[0]}); run \`tollgate run\` in a terminal to see it`,
      );
    }
  };
}
