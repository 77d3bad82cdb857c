import { join } from 'node:path';
import { type HookAgent, STOP_HOOK_TIMEOUT_MS, stringField } from './hook-agent.js';

/**
 * Cursor. `stop` payload: `conversation_id, generation_id, workspace_roots[], cursor_version, status, loop_count`,
 * possibly preceded by a UTF-8 BOM. It only understands `{"followup_message":…}` (auto-submitted as the next user
 * message) or `{}`; `loop_limit` in hooks.json caps the follow-ups (default 5). From Cursor's hook documentation (not run here).
 */
export const cursorHooks: HookAgent<'cursor'> = {
  name: 'cursor',
  title: 'Cursor',
  stopEvent: 'stop',
  blockCap: 5,
  hookTimeoutMs: STOP_HOOK_TIMEOUT_MS,
  matches: (payload) => 'cursor_version' in payload || 'conversation_id' in payload || 'workspace_roots' in payload,
  detectionRank: 10,
  readPayload: (payload) => {
    const roots = Array.isArray(payload.workspace_roots) ? payload.workspace_roots : [];
    const firstRoot = typeof roots[0] === 'string' ? roots[0] : null;
    const loopCount = typeof payload.loop_count === 'number' ? payload.loop_count : null;
    const status = stringField(payload, 'status');
    return {
      sessionId: stringField(payload, 'conversation_id'),
      cwd: firstRoot ?? stringField(payload, 'cwd'),
      loopActive: (loopCount ?? 0) > 0,
      loopCount,
      userStopped: status === 'aborted' || status === 'error',
    };
  },
  block: (reason) => ({ followup_message: reason }),
  allow: () => ({}),
  configEdits: (scope, roots, commands) => {
    const base = scope === 'user' ? join(roots.home, '.cursor') : join(roots.repoRoot!, '.cursor');
    return {
      edits: [
        {
          kind: 'hook',
          file: join(base, 'hooks.json'),
          layout: 'flat',
          eventsPath: ['hooks'],
          event: 'stop',
          // `timeout` in seconds, as Cursor's hook documentation gives it.
          handler: { command: commands.hookCommand, timeout: cursorHooks.hookTimeoutMs / 1000 },
          fileDefaults: { version: 1 },
        },
        {
          kind: 'json-mcp',
          file: join(base, 'mcp.json'),
          path: ['mcpServers', 'tollgate'],
          value: { command: commands.mcpCommand, args: commands.mcpArgs },
        },
      ],
      notes: [],
    };
  },
};
