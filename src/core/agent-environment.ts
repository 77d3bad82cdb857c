/**
 * Variables the coding agents set in the environment of the commands they run, so a command can tell that no person
 * typed it: Claude Code's `CLAUDECODE=1`, Gemini CLI's `GEMINI_CLI=1`, Codex's sandbox markers, and tollgate's own
 * `TOLLGATE_ACTIVE=1` in every reviewer it starts.
 */
const AGENT_MARKERS = [
  'TOLLGATE_ACTIVE',
  'CLAUDECODE',
  'GEMINI_CLI',
  'CODEX_SANDBOX',
  'CODEX_SANDBOX_NETWORK_DISABLED',
];

/** The agent markers set (to a non-empty value other than "0") in this environment. */
export function agentMarkers(env: NodeJS.ProcessEnv): string[] {
  return AGENT_MARKERS.filter((name) => {
    const value = env[name];
    return value !== undefined && value !== '' && value !== '0';
  });
}
