import { join } from 'node:path';
import { blockWithDecision, booleanField, type HookAgent, STOP_HOOK_TIMEOUT_MS, stringField } from './hook-agent.js';

/**
 * GitHub Copilot CLI. `agentStop` payload: `{timestamp, cwd, sessionId, transcriptPath?, stopReason?,
 * stopHookActive?}` (a PascalCase `Stop` entry switches it to snake_case, so both spellings are read). Block with
 * `{"decision":"block","reason":…}`; exit 2 does not block here. It ends the turn after 8 blocks in a row (1.0.72).
 * From the 1.0.102 changelog and the @github/copilot-sdk types.
 */
export const copilotHooks: HookAgent<'copilot'> = {
  name: 'copilot',
  title: 'GitHub Copilot CLI',
  stopEvent: 'agentStop',
  blockCap: 8,
  hookTimeoutMs: STOP_HOOK_TIMEOUT_MS,
  matches: (payload) => typeof payload.sessionId === 'string' || 'stopHookActive' in payload,
  detectionRank: 40,
  readPayload: (payload) => ({
    sessionId: stringField(payload, 'sessionId', 'session_id'),
    cwd: stringField(payload, 'cwd'),
    loopActive: booleanField(payload, 'stopHookActive', 'stop_hook_active'),
    loopCount: null,
  }),
  block: blockWithDecision,
  allow: () => ({}),
  configEdits: (scope, roots, commands) => {
    const hooksFile =
      scope === 'user'
        ? join(roots.home, '.copilot', 'hooks', 'tollgate.json')
        : join(roots.repoRoot!, '.github', 'hooks', 'tollgate.json');
    return {
      edits: [
        {
          kind: 'hook',
          file: hooksFile,
          layout: 'flat',
          eventsPath: ['hooks'],
          event: 'agentStop',
          handler: {
            type: 'command',
            bash: commands.hookCommand,
            powershell: commands.hookCommand,
            timeoutSec: copilotHooks.hookTimeoutMs / 1000,
          },
          fileDefaults: { version: 1 },
        },
        {
          kind: 'json-mcp',
          // Copilot CLI reads workspace servers from `.mcp.json` and `.github/mcp.json` too. `.mcp.json` is also Claude
          // Code's project file, where a shared entry would let `uninstall copilot` remove Claude's server; the
          // `.github` file is Copilot's own, beside its hooks.
          file:
            scope === 'user'
              ? join(roots.home, '.copilot', 'mcp-config.json')
              : join(roots.repoRoot!, '.github', 'mcp.json'),
          path: ['mcpServers', 'tollgate'],
          value: { type: 'local', command: commands.mcpCommand, args: commands.mcpArgs, tools: ['*'] },
        },
      ],
      notes:
        scope === 'project'
          ? ['Copilot CLI loads workspace MCP servers (.github/mcp.json) and hooks only in a folder you have trusted.']
          : [],
    };
  },
};
