import { join } from 'node:path';
import { STATE_KEY_LOCATION_ENV } from '../../core/state/state-key.js';
import {
  allowWithSystemMessage,
  blockWithDecision,
  type HookAgent,
  type InstallCommands,
  readSnakeCasePayload,
  STOP_HOOK_TIMEOUT_MS,
} from './hook-agent.js';

/**
 * Codex starts an MCP server with only a few variables of its own environment (HOME, PATH, TMPDIR, locale…), while
 * its hooks get all of it. These decide which state key tollgate signs with and which config it reads: were they to
 * reach the stop hook and not the MCP server, the server's runs would be signed with another key (or judged by
 * another config) and the hook would never accept them. Codex forwards the ones listed in `env_vars` when they are set.
 */
export function codexForwardedEnv(commands: Pick<InstallCommands, 'validatorSwitches'>): string[] {
  return [...STATE_KEY_LOCATION_ENV, 'TOLLGATE_CONFIG', 'TOLLGATE_POLICY', ...commands.validatorSwitches];
}

/**
 * OpenAI Codex CLI. Stop payload (strict schema in the 0.169 binary): `cwd, hook_event_name: "Stop",
 * last_assistant_message, model, permission_mode, session_id, stop_hook_active, transcript_path, turn_id`. The reply
 * schema is strict too (`additionalProperties: false`): only `continue, decision, reason, stopReason, suppressOutput,
 * systemMessage`, never `hookSpecificOutput`. Codex has no block cap of its own (openai/codex#37937), and ignores a
 * hook until it is trusted (see codex-trust.ts). Checked against the CLI itself.
 */
export const codexHooks: HookAgent<'codex'> = {
  name: 'codex',
  title: 'Codex CLI',
  stopEvent: 'Stop',
  blockCap: null,
  hookTimeoutMs: STOP_HOOK_TIMEOUT_MS,
  matches: (payload) => typeof payload.turn_id === 'string',
  detectionRank: 30,
  readPayload: readSnakeCasePayload,
  block: blockWithDecision,
  // Codex 0.17x defers MCP tools: `tool_search` finds the server's namespace `mcp__<server>`, which holds the tool.
  findDeferredTool: (server, tool) =>
    `if it is deferred, find it with tool_search: namespace \`mcp__${server}\`, tool \`${tool}\``,
  allow: allowWithSystemMessage,
  configEdits: (scope, roots, commands) => {
    const base = scope === 'user' ? join(roots.home, '.codex') : join(roots.repoRoot!, '.codex');
    return {
      edits: [
        {
          kind: 'hook',
          file: join(base, 'hooks.json'),
          layout: 'nested',
          eventsPath: ['hooks'],
          event: 'Stop',
          // `timeout` in seconds (listed back as `timeoutSec`).
          handler: { type: 'command', command: commands.hookCommand, timeout: codexHooks.hookTimeoutMs / 1000 },
        },
        {
          kind: 'toml-mcp',
          file: join(base, 'config.toml'),
          table: ['mcp_servers', 'tollgate'],
          // Validation can take minutes: Codex's default tool timeout is 60 s.
          values: {
            command: commands.mcpCommand,
            args: commands.mcpArgs,
            env_vars: codexForwardedEnv(commands),
            tool_timeout_sec: 900,
          },
        },
      ],
      notes:
        scope === 'project'
          ? [
              'Codex loads .codex/ of a project only once the project is trusted (`codex exec --trust` or the trust prompt).',
            ]
          : [],
    };
  },
};
