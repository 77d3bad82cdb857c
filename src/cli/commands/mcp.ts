import { resolve } from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { parseFlags } from '../flags.js';
import { type CommandIo, processIo } from '../io.js';

const mcpFlags = z.object({ repo: z.string().min(1).optional() });

/** `tollgate mcp`: the stdio MCP server. */
export function registerMcp(program: Command, io: () => CommandIo = processIo): void {
  program
    .command('mcp')
    .summary('serve the validators to an agent over MCP (stdio)')
    .description(
      "Runs a Model Context Protocol server on stdin/stdout until the client disconnects. Tools: `parallel_validation` (every active validator at once; with one active validator, that validator's own tool instead), one tool per active validator (`checks`, `code_review`, `static_analysis`, `secret_scanning`, `dependency_advisories`), and `validation_status`; the list follows the config (tools/list_changed). Results are persisted like `tollgate run`'s, so the stop hook sees them. stdout carries JSON-RPC only; diagnostics go to stderr. Register it with `tollgate install <agent>`.",
    )
    .option(
      '--repo <dir>',
      "the repository to validate (default: the one containing the working directory, else the client's roots)",
    )
    .addHelpText(
      'after',
      `
Examples:
  $ tollgate mcp
  $ tollgate mcp --repo .`,
    )
    .action(async (rawFlags: unknown) => {
      const flags = parseFlags(mcpFlags, rawFlags);
      const { cwd, env } = io();
      const { serveStdio } = await import('../../integrations/mcp/serve-stdio.js');
      const { TOLLGATE_VERSION } = await import('../../core/version.js');
      const { findRepoRoot } = await import('../../core/config/repo-root.js');
      const repoRoot = flags.repo ? await findRepoRoot(resolve(cwd, flags.repo), env) : undefined;
      await serveStdio({
        cwd,
        env: env as NodeJS.ProcessEnv,
        version: TOLLGATE_VERSION,
        ...(repoRoot ? { repoRoot } : {}),
      });
    });
}
