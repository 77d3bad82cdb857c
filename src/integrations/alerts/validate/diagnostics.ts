import type { EvalResult } from '../evals.js';
import { addUsage, type CallUsage } from '../usage.js';

/** `diagnostics.json` of a workspace or challenge (`--show-usage`): the calls made, their usage, skills and evals. */
export function diagnostics(
  calls: ReadonlyArray<{ agent: string; argv: string[]; outcome: string; durationMs: number; usage: CallUsage }>,
  skills: { used: readonly string[]; basis: 'observed' | 'self-reported' } | null,
  evalResult?: EvalResult,
) {
  return {
    calls: calls.map(({ agent, argv, outcome, durationMs, usage }) => ({ agent, argv, outcome, durationMs, usage })),
    ...(skills ? { skillsApplied: skills.used, skillsBasis: skills.basis } : {}),
    usage: calls.reduce<CallUsage>((total, call) => addUsage(total, call.usage), {}),
    ...(evalResult ? { evals: evalResult } : {}),
  };
}
