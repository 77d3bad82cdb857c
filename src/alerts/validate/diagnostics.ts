import type { EvalResult } from '../evals.js';
import { addUsage, type CallUsage } from '../usage.js';

/** `diagnostics.json` of a workspace or challenge (`--show-usage`): the calls made, their usage, skills and evals. */
export function diagnostics(
  calls: ReadonlyArray<{ agent: string; argv: string[]; outcome: string; durationMs: number; usage: CallUsage }>,
  skills: readonly string[],
  evalResult?: EvalResult,
) {
  return {
    calls: calls.map(({ agent, argv, outcome, durationMs, usage }) => ({ agent, argv, outcome, durationMs, usage })),
    skillsApplied: skills,
    usage: calls.reduce<CallUsage>((total, call) => addUsage(total, call.usage), {}),
    ...(evalResult ? { evals: evalResult } : {}),
  };
}
