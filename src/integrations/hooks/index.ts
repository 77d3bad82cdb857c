import { claudeHooks } from './claude.js';
import { codexHooks } from './codex.js';
import { copilotHooks } from './copilot.js';
import { cursorHooks } from './cursor.js';
import { geminiHooks } from './gemini.js';
import type { HookAgent } from './hook-agent.js';

export * from './hook-agent.js';

/**
 * Every agent whose stop hook tollgate speaks, sorted. Adding one is one file and one line here: `hook stop --agent`,
 * `install`/`uninstall`, `doctor` and payload detection all read this list.
 */
export const hookAgents = [
  claudeHooks,
  codexHooks,
  copilotHooks,
  cursorHooks,
  geminiHooks,
] as const satisfies readonly HookAgent[];

export type HookAgentName = (typeof hookAgents)[number]['name'];
export type RegisteredHookAgent = HookAgent<HookAgentName>;

export const HOOK_AGENTS = hookAgents.map((agent) => agent.name) as [HookAgentName, ...HookAgentName[]];

export function hookAgent(name: HookAgentName): RegisteredHookAgent {
  return hookAgents.find((agent) => agent.name === name)!;
}

/** The agents in the order their payloads are recognised (each one's `detectionRank`). */
export const detectionOrder: readonly RegisteredHookAgent[] = [...hookAgents].sort(
  (a, b) => a.detectionRank - b.detectionRank,
);

/** The most generic payload format (the highest rank): it takes what no one claims, and answers unreadable input. */
export const fallbackHookAgent: RegisteredHookAgent = detectionOrder.at(-1)!;

/** The agent a payload came from when `--agent` is not given. */
export function detectAgent(payload: Record<string, unknown>): RegisteredHookAgent {
  return detectionOrder.find((agent) => agent.matches(payload)) ?? fallbackHookAgent;
}
