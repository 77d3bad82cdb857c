import type { RegisteredAdapter } from '../../agents/index.js';
import type { AgentSettings } from '../../agents/types.js';
import { type AgentCallRecord, callAgent } from './agent-call.js';
import {
  type FallbackCandidate,
  fallbackWinner,
  JUDGE_JSON_SCHEMA,
  type JudgeAnswer,
  parseJudgeAnswer,
} from './judge-answer.js';
import { judgeRetryPrompt } from './prompts.js';

export type JudgeDecision =
  | { source: 'judge'; winner: number; answer: JudgeAnswer; problems: string[] }
  /** The judge failed twice (or could not run): the deterministic ranking picked the winner. */
  | { source: 'fallback'; winner: number; note: string; problems: string[] }
  | { source: 'single'; winner: number; note: string; problems: string[] }
  | { source: 'none'; note: string; problems: string[] };

export interface RunJudgeOptions {
  adapter: RegisteredAdapter;
  settings: AgentSettings;
  /** The alert folder; the judge runs read-only and with no tools there. */
  cwd: string;
  prompt: string;
  candidates: readonly FallbackCandidate[];
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
}

/** The judge, with one retry on a malformed answer, then the deterministic winner with a note saying why. */
export async function runJudge(
  options: RunJudgeOptions,
): Promise<{ decision: JudgeDecision; calls: AgentCallRecord[] }> {
  const indexes = options.candidates.map((candidate) => candidate.index);
  const calls: AgentCallRecord[] = [];
  if (indexes.length === 0)
    return { decision: { source: 'none', note: 'no analysis produced a report', problems: [] }, calls };
  if (indexes.length === 1) {
    return {
      decision: { source: 'single', winner: indexes[0]!, note: 'one report only: no judge needed', problems: [] },
      calls,
    };
  }
  const problems: string[] = [];
  let prompt = options.prompt;
  for (let attempt = 0; attempt < 2; attempt++) {
    const { outcome, record } = await callAgent({
      adapter: options.adapter,
      // A tool-less judge: it gets everything in the prompt.
      settings: { ...options.settings, allowToolUse: false },
      prompt,
      cwd: options.cwd,
      purpose: 'review',
      timeoutMs: options.timeoutMs,
      env: options.env,
      answerSchema: JUDGE_JSON_SCHEMA,
    });
    calls.push(record);
    if (outcome.kind !== 'answer') {
      problems.push(`judge ${outcome.kind}: ${outcome.message}`);
      if (outcome.kind !== 'failed') break; // a timeout or a usage limit will not be better on a retry
    } else {
      const parsed = parseJudgeAnswer(outcome.text, outcome.structured, indexes);
      if (parsed.ok)
        return {
          decision: { source: 'judge', winner: parsed.answer.winner_index, answer: parsed.answer, problems },
          calls,
        };
      problems.push(`judge answer rejected: ${parsed.problem}`);
      prompt = judgeRetryPrompt(options.prompt, parsed.problem);
    }
  }
  const winner = fallbackWinner(options.candidates)!;
  return {
    decision: {
      source: 'fallback',
      winner,
      note: `the judge gave no valid answer (${problems.join('; ')}); report ${winner} won on the deterministic evals`,
      problems,
    },
    calls,
  };
}
