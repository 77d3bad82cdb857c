import type { RegisteredAdapter } from '../../agents/index.js';
import type { AgentSettings } from '../../agents/types.js';
import { type AgentCallRecord, callAgent } from './agent-call.js';
import { type ChallengeResult, parseChallengeAnswer } from './challenge-answer.js';

export interface RunChallengeOptions {
  adapter: RegisteredAdapter;
  settings: AgentSettings;
  /** The analysis' workspace: the challenger inspects and re-runs its scripts there. */
  workspace: string;
  prompt: string;
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
}

/** One challenge. Failures and timeouts become INSUFFICIENT_EVIDENCE with the reason, never an exception. */
export async function runChallenge(
  options: RunChallengeOptions,
): Promise<{ result: ChallengeResult; call: AgentCallRecord }> {
  const { outcome, record } = await callAgent({
    adapter: options.adapter,
    settings: options.settings,
    prompt: options.prompt,
    cwd: options.workspace,
    purpose: 'analysis',
    timeoutMs: options.timeoutMs,
    env: options.env,
  });
  if (outcome.kind === 'answer') return { result: parseChallengeAnswer(outcome.text), call: record };
  return {
    result: {
      status: 'failed',
      verdict: 'INSUFFICIENT_EVIDENCE',
      reasoning: `challenge ${outcome.kind}: ${outcome.message}`,
    },
    call: record,
  };
}
