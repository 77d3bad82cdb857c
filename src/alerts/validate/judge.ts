import type { AgentCallRecord } from '../agent-call.js';
import { streamLog } from '../agent-call.js';
import type { AnalysisSlot } from '../analysis-stage.js';
import { type ChallengeResult, challengeVerdictOf } from '../challenge.js';
import { type EvalResult, formatEvalResult } from '../evals.js';
import { type JudgeDecision, runJudge } from '../judge-stage.js';
import { type JudgeCandidate, judgePrompt } from '../prompts.js';
import { parseReport } from '../report.js';
import type { AlertSession } from './types.js';

export interface JudgeOutcome {
  decision: JudgeDecision;
  calls: AgentCallRecord[];
  /** The CLI that judged (the first healthy one). */
  agent: string;
}

/** Stage 6: the judge reads every report with its evals, skill compliance and challenge, and picks a winner. */
export async function judgeReports(
  session: AlertSession,
  slots: readonly AnalysisSlot[],
  evals: ReadonlyMap<number, EvalResult>,
  challenges: ReadonlyMap<number, ChallengeResult>,
): Promise<JudgeOutcome> {
  const candidates = slots.filter((slot) => slot.report !== null && slot.status === 'completed');
  const required = requiredSkills(session);
  const judgeCandidates: JudgeCandidate[] = slots.map((slot) => ({
    index: slot.index,
    agent: slot.adapter.name,
    report: slot.status === 'completed' && slot.report !== null ? session.redact(slot.report) : null,
    ...(slot.status === 'completed' ? {} : { failure: `${slot.status}: ${slot.message ?? ''}` }),
    evals: evals.has(slot.index) ? formatEvalResult(evals.get(slot.index)!) : 'not run',
    compliance: compliance(slot.report ?? '', required).text,
    challenge: describeChallenge(challenges.get(slot.index)),
  }));
  const adapter = session.pool.healthy[0]!;
  const { decision, calls } = await runJudge({
    adapter,
    settings: session.settingsOf(adapter),
    cwd: session.alertDir,
    prompt: judgePrompt(session.subject, judgeCandidates, session.skills.judge),
    candidates: candidates.map((slot) => ({
      index: slot.index,
      evalScore: evals.get(slot.index)?.score ?? 0,
      evalPassed: evals.get(slot.index)?.passed ?? false,
      challenge: challengeVerdictOf(challenges.get(slot.index) ?? { status: 'skipped', reasoning: '' }),
    })),
    timeoutMs: session.config.timeouts.judge,
    env: session.agentEnv,
  });
  if (calls.length > 0) await session.writer.write('judge.stream.log', streamLog(calls));
  return { decision, calls, agent: adapter.name };
}

export function requiredSkills(session: AlertSession): string[] {
  return session.skills.analysis.filter((skill) => skill.required).map((skill) => skill.name);
}

function describeChallenge(result: ChallengeResult | undefined): string {
  if (!result) return 'not run';
  if (result.status === 'skipped') return `skipped: ${result.reasoning}`;
  if (result.status === 'failed') return `${result.verdict} (the challenge failed: ${result.reasoning})`;
  const gaps = result.evidence_gaps.length > 0 ? `\nEvidence gaps: ${result.evidence_gaps.join('; ')}` : '';
  const against =
    result.contradicting_evidence.length > 0
      ? `\nContradicting evidence: ${result.contradicting_evidence.join('; ')}`
      : '';
  return `${result.verdict}: ${result.reasoning}${gaps}${against}`;
}

/** Required skills the report's Methodology checklist ticks. */
export function compliance(
  report: string,
  required: readonly string[],
): { percent: number | null; used: string[]; text: string } {
  const used = parseReport(report).methodology;
  if (required.length === 0) return { percent: null, used, text: 'no required skills' };
  const applied = required.filter((name) => used.includes(name));
  const missing = required.filter((name) => !used.includes(name));
  const percent = Math.round((applied.length / required.length) * 100);
  return {
    percent,
    used,
    text: `${percent}% of required skills applied${missing.length > 0 ? ` (missing: ${missing.join(', ')})` : ''}`,
  };
}
