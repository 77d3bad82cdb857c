import { claudeAdapter } from './claude.js';
import { codexAdapter } from './codex.js';
import { copilotAdapter } from './copilot.js';
import { cursorAdapter } from './cursor.js';
import { geminiAdapter } from './gemini.js';
import { opencodeAdapter } from './opencode.js';
import type { AgentAdapter } from './types.js';

export type { AgentAdapter } from './types.js';

/**
 * Every agent CLI tollgate can ask for a review or an analysis, in the default `cliPreference` order. Adding one is
 * one file and one line here: the agent names (config schema, `--agent` flags, help texts) are derived from this list.
 */
export const agentAdapters = [
  claudeAdapter,
  codexAdapter,
  geminiAdapter,
  copilotAdapter,
  cursorAdapter,
  opencodeAdapter,
] as const satisfies readonly AgentAdapter[];

export type AgentName = (typeof agentAdapters)[number]['name'];
/** An adapter from the registry: its `name` is one of `AGENT_NAMES`. */
export type RegisteredAdapter = AgentAdapter<AgentName>;

export const AGENT_NAMES = agentAdapters.map((adapter) => adapter.name) as [AgentName, ...AgentName[]];

function findAgent(name: string): RegisteredAdapter | undefined {
  return agentAdapters.find((adapter) => adapter.name === name);
}

export function agentByName(name: AgentName): RegisteredAdapter {
  const adapter = findAgent(name);
  if (!adapter) throw new Error(`no adapter named ${name}`);
  return adapter;
}

/** Agent names from a loaded config, which the schema already checked against `AGENT_NAMES`. */
export function agentNamesOf(names: readonly string[]): AgentName[] {
  return names.map((name) => agentByName(name as AgentName).name);
}
