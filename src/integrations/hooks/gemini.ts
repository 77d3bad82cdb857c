import { join } from 'node:path';
import { STATE_KEY_LOCATION_ENV } from '../../core/state/state-key.js';
import {
  allowWithSystemMessage,
  blockWithDecision,
  type HookAgent,
  readSnakeCasePayload,
  STOP_HOOK_TIMEOUT_MS,
} from './hook-agent.js';

/**
 * Gemini CLI starts no MCP server in an untrusted folder, user-level ones included, while user hooks still run there:
 * the agent would be blocked with no tool to validate.
 */
const UNTRUSTED_USER =
  'Gemini CLI disables MCP servers in untrusted folders, this user-level one included, while the stop hook still ' +
  'runs: trust each project folder when Gemini CLI asks (headless: --skip-trust or GEMINI_CLI_TRUST_WORKSPACE=true), ' +
  'or the agent can only validate with `tollgate run`.';

/**
 * Gemini CLI strips every variable whose name contains KEY, TOKEN, SECRET, AUTH… from an MCP server's environment, and
 * with GITHUB_SHA set (strict mode) every variable but a few, from hooks too; but it sets a server's and a hook's
 * `env` from the config, whose `${NAME:-}` it expands from its own, unfiltered environment when it loads settings
 * (checked against 0.61.0). So the hook and the server are both given where the state key is, and sign and check with
 * the same key whatever Gemini filters.
 */
const KEY_LOCATION_ENV = Object.fromEntries(STATE_KEY_LOCATION_ENV.map((name) => [name, `\${${name}:-}`]));

/**
 * Gemini CLI. Its stop hook is `AfterAgent` (settings.json `hooks`, `timeout` in milliseconds; project hooks load
 * only in trusted folders). Payload: `session_id, transcript_path, cwd, hook_event_name: "AfterAgent", timestamp,
 * prompt, prompt_response, stop_hook_active`; `{"decision":"block","reason":…}` sends the reason as a new user turn.
 * No fixed cap: continuations draw down the session's turn budget. Checked against 0.61.0.
 */
export const geminiHooks: HookAgent<'gemini'> = {
  name: 'gemini',
  title: 'Gemini CLI',
  stopEvent: 'AfterAgent',
  blockCap: null,
  hookTimeoutMs: STOP_HOOK_TIMEOUT_MS,
  matches: (payload) => payload.hook_event_name === 'AfterAgent',
  detectionRank: 20,
  readPayload: readSnakeCasePayload,
  block: blockWithDecision,
  // Gemini shows `systemMessage` to the user, as Claude Code does.
  allow: allowWithSystemMessage,
  configEdits: (scope, roots, commands) => {
    const base = scope === 'user' ? join(roots.home, '.gemini') : join(roots.repoRoot!, '.gemini');
    const file = join(base, 'settings.json');
    return {
      edits: [
        {
          kind: 'hook',
          file,
          layout: 'nested',
          eventsPath: ['hooks'],
          event: 'AfterAgent',
          handler: {
            type: 'command',
            name: 'tollgate',
            command: commands.hookCommand,
            timeout: geminiHooks.hookTimeoutMs, // milliseconds
            env: KEY_LOCATION_ENV,
          },
        },
        {
          kind: 'json-mcp',
          file,
          path: ['mcpServers', 'tollgate'],
          value: { command: commands.mcpCommand, args: commands.mcpArgs, timeout: 900_000, env: KEY_LOCATION_ENV },
        },
      ],
      notes: scope === 'project' ? ['Gemini CLI loads project hooks only in a trusted folder.'] : [UNTRUSTED_USER],
    };
  },
};
