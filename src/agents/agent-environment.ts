import { agentAdapters } from './index.js';

/**
 * Variables the coding agents set in the environment of the commands they run, so a command can tell that no person
 * typed it: each adapter's `environmentMarkers` (Claude Code's `CLAUDECODE=1`, Gemini CLI's `GEMINI_CLI=1`, Codex's
 * sandbox markers), and tollgate's own `TOLLGATE_ACTIVE=1` in every reviewer it starts.
 */
export const AGENT_ENVIRONMENT_MARKERS: readonly string[] = [
  'TOLLGATE_ACTIVE',
  ...agentAdapters.flatMap((adapter) => adapter.environmentMarkers ?? []),
];

/** The agent markers set (to a non-empty value other than "0") in this environment. */
export function agentMarkers(env: NodeJS.ProcessEnv): string[] {
  return AGENT_ENVIRONMENT_MARKERS.filter((name) => {
    const value = env[name];
    return value !== undefined && value !== '' && value !== '0';
  });
}
