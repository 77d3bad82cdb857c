import { claudeHooks } from './claude.js';
import { codexHooks } from './codex.js';
import { copilotHooks } from './copilot.js';
import { cursorHooks } from './cursor.js';
import { geminiHooks } from './gemini.js';
import type { HookAgent, HookAgentName } from './hook-agent.js';

export * from './hook-agent.js';

/** Every agent whose stop hook tollgate speaks, sorted. Adding one is one file and one line. */
export const hookAgents: readonly HookAgent[] = [claudeHooks, codexHooks, copilotHooks, cursorHooks, geminiHooks];

export function hookAgent(name: HookAgentName): HookAgent {
  return hookAgents.find((agent) => agent.name === name)!;
}

/**
 * The agent a payload came from when `--agent` is not given. Most specific first: Cursor's and Gemini's payloads
 * are unmistakable, Codex's has `turn_id`, Copilot's is camelCase; anything else is read as Claude Code's.
 */
const DETECTION_ORDER: readonly HookAgent[] = [cursorHooks, geminiHooks, codexHooks, copilotHooks, claudeHooks];

export function detectAgent(payload: Record<string, unknown>): HookAgent {
  return DETECTION_ORDER.find((agent) => agent.matches(payload)) ?? claudeHooks;
}
