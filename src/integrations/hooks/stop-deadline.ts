/**
 * When the stop hook must have answered. Each agent kills a hook that outlives the timeout in its config and treats
 * that as a failed hook, which lets the stop through; so the hook answers first, blocking ("validation is still
 * pending") when it has no decision yet. The limit is the agent's hook timeout (what `install` writes,
 * `HookAgent.hookTimeoutMs`), or `TOLLGATE_HOOK_TIMEOUT` for a config whose timeout a person set otherwise, less a
 * margin for starting the hook and writing its reply on a loaded machine.
 */
export const HOOK_TIMEOUT_ENV = 'TOLLGATE_HOOK_TIMEOUT';

/** A tenth of the agent's limit, at least 2 s: room for the process start before us and the reply after us. */
export function deadlineMargin(agentTimeoutMs: number): number {
  return Math.max(2000, Math.round(agentTimeoutMs / 10));
}

/** The agent's hook timeout in ms: `TOLLGATE_HOOK_TIMEOUT` ("90s", "10m", "1500ms"; bare numbers are seconds) or the declared one. */
export function agentHookTimeout(env: NodeJS.ProcessEnv, declaredMs: number): { ms: number; problem?: string } {
  const raw = env[HOOK_TIMEOUT_ENV]?.trim();
  if (!raw) return { ms: declaredMs };
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(raw);
  const ms = match ? Number(match[1]) * (match[2] === 'ms' ? 1 : match[2] === 'm' ? 60_000 : 1000) : Number.NaN;
  if (!Number.isFinite(ms) || ms < 1000) {
    return {
      ms: declaredMs,
      problem: `${HOOK_TIMEOUT_ENV}: expected the agent's hook timeout as a duration of at least 1s like "600s" or "10m", got ${JSON.stringify(raw)}; using ${declaredMs / 1000} s`,
    };
  }
  return { ms };
}

/** When this process started (the agent's clock for the hook starts at its spawn, before any of our code ran). */
export function processStartedAt(): number {
  return Date.now() - Math.round(process.uptime() * 1000);
}

/** The time by which the hook answers, ms since the epoch. */
export function stopDeadlineAt(startedAt: number, agentTimeoutMs: number): number {
  return startedAt + agentTimeoutMs - deadlineMargin(agentTimeoutMs);
}

/**
 * When the small bundle's fast path gives up waiting (for git, mostly) and hands the stop to the full path: halfway
 * to the deadline, leaving the full path the other half to decide, or to say that validation is pending.
 */
export function fastPathHandoffAt(startedAt: number, deadlineAt: number): number {
  return startedAt + Math.max(0, deadlineAt - startedAt) / 2;
}
