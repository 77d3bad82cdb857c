import { join } from 'node:path';
import {
  allowWithSystemMessage,
  blockWithDecision,
  type HookAgent,
  readSnakeCasePayload,
  STOP_HOOK_TIMEOUT_MS,
} from './hook-agent.js';

/**
 * Claude Code starts a project's `.mcp.json` servers only once the user approved them (until then `/mcp` lists them
 * as "Pending approval", and `claude -p` leaves them out): the agent would have no tollgate tool while the stop hook
 * blocks it. Approval is the user's own, per checkout, in the personal (git-ignored) settings file.
 */
const PENDING_APPROVAL =
  'Claude Code starts project .mcp.json servers as "Pending approval": run `claude` and approve the tollgate server, ' +
  'or add it to .claude/settings.local.json: {"enabledMcpjsonServers": ["tollgate"]}. Until then the agent has no ' +
  'tollgate tools, and the stop hook still blocks it.';

/**
 * Claude Code. Stop payload: `session_id, transcript_path, cwd, hook_event_name: "Stop", stop_hook_active`; block
 * with `{"decision":"block","reason":…}`; it ends the turn itself after `CLAUDE_CODE_STOP_HOOK_BLOCK_CAP` (8) blocks
 * in a row. Checked against the 2.1.330 binary and code.claude.com/docs/en/hooks.
 */
export const claudeHooks: HookAgent<'claude'> = {
  name: 'claude',
  title: 'Claude Code',
  stopEvent: 'Stop',
  blockCap: 8,
  hookTimeoutMs: STOP_HOOK_TIMEOUT_MS,
  matches: (payload) => payload.hook_event_name === 'Stop' && typeof payload.session_id === 'string',
  detectionRank: 100,
  readPayload: readSnakeCasePayload,
  block: blockWithDecision,
  // Claude Code 2.1.x lists MCP tools as deferred, `mcp__<server>__<tool>`, loaded by ToolSearch `select:<name>`.
  findDeferredTool: (server, tool) =>
    `if it is deferred, load it with ToolSearch, query "select:mcp__${server}__${tool}"`,
  allow: allowWithSystemMessage,
  configEdits: (scope, roots, commands) => {
    const base = scope === 'user' ? roots.home : roots.repoRoot!;
    return {
      edits: [
        {
          kind: 'hook',
          file: join(base, '.claude', 'settings.json'),
          layout: 'nested',
          eventsPath: ['hooks'],
          event: 'Stop',
          // `timeout` in seconds.
          handler: { type: 'command', command: commands.hookCommand, timeout: claudeHooks.hookTimeoutMs / 1000 },
        },
        {
          kind: 'json-mcp',
          // Project servers live in .mcp.json; user servers in ~/.claude.json (`claude mcp add --scope user`).
          file: scope === 'user' ? join(roots.home, '.claude.json') : join(base, '.mcp.json'),
          path: ['mcpServers', 'tollgate'],
          value: { type: 'stdio', command: commands.mcpCommand, args: commands.mcpArgs },
        },
      ],
      notes: scope === 'project' ? [PENDING_APPROVAL] : [],
    };
  },
};
