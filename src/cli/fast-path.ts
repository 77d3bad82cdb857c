import { HOOK_AGENTS, type HookAgentName } from '../integrations/hooks/index.js';

/**
 * Recognises exactly `hook stop`, `hook stop --agent NAME` and `hook stop --agent=NAME` with a known NAME. Anything
 * else (help, a typo, an unknown agent) returns null and goes through the full CLI, which explains the problem.
 */
export function stopHookAgentFromArgv(args: readonly string[]): { agent: HookAgentName | undefined } | null {
  if (args[0] !== 'hook' || args[1] !== 'stop') return null;
  const rest = args.slice(2);
  if (rest.length === 0) return { agent: undefined };
  const value =
    rest.length === 1 && rest[0]!.startsWith('--agent=')
      ? rest[0]!.slice('--agent='.length)
      : rest.length === 2 && rest[0] === '--agent'
        ? rest[1]
        : undefined;
  return value !== undefined && (HOOK_AGENTS as readonly string[]).includes(value)
    ? { agent: value as HookAgentName }
    : null;
}
