import { claudeAdapter } from './claude.js';
import { codexAdapter } from './codex.js';
import { copilotAdapter } from './copilot.js';
import { cursorAdapter } from './cursor.js';
import { geminiAdapter } from './gemini.js';
import { opencodeAdapter } from './opencode.js';
import type { AgentAdapter, AgentName } from './types.js';

export type { AgentAdapter, AgentName } from './types.js';
export { AGENT_NAMES } from './types.js';

/** Every agent CLI tollgate can ask for a review, in the default `cliPreference` order. Adding one is one file and one line. */
export const agentAdapters: readonly AgentAdapter[] = [
  claudeAdapter,
  codexAdapter,
  geminiAdapter,
  copilotAdapter,
  cursorAdapter,
  opencodeAdapter,
];

export function findAgent(name: string): AgentAdapter | undefined {
  return agentAdapters.find((adapter) => adapter.name === name);
}

export function agentByName(name: AgentName): AgentAdapter {
  const adapter = findAgent(name);
  if (!adapter) throw new Error(`no adapter named ${name}`);
  return adapter;
}
