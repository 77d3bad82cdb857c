import type { AgentCallRecord } from '../agent-call.js';
import { streamLog } from '../agent-call.js';
import type { AnalysisSlot } from '../analysis-call.js';
import { type ChallengeResult, challengeVerdictOf } from '../challenge-answer.js';
import { type EvalResult, formatEvalResult } from '../evals.js';
import { type JudgeDecision, runJudge } from '../judge-call.js';
import { type JudgeCandidate, judgePrompt } from '../prompts.js';
import { parseReport } from '../report.js';
import { ANALYSIS_SKILLS_FOLDER } from '../skills.js';
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
    compliance: compliance(slot, required).text,
    challenge: describeChallenge(challenges.get(slot.index)),
  }));
  const adapter = session.pool.healthy[0]!;
  session.progress.start('judge', adapter.name);
  const { decision, calls } = await runJudge({
    adapter,
    settings: session.settingsOf(adapter, 'judge'),
    cwd: session.alertDir,
    prompt: judgePrompt(session.subject, judgeCandidates, session.skills.judge, session.definitions.judge.instructions),
    candidates: candidates.map((slot) => ({
      index: slot.index,
      evalScore: evals.get(slot.index)?.score ?? 0,
      evalPassed: evals.get(slot.index)?.passed ?? false,
      challenge: challengeVerdictOf(challenges.get(slot.index) ?? { status: 'skipped', reasoning: '' }),
    })),
    timeoutMs: session.config.timeouts.judge,
    env: session.agentEnv,
  });
  session.progress.end(
    'judge',
    'winner' in decision ? `report ${decision.winner} (${decision.source})` : decision.source,
  );
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

export interface Compliance {
  percent: number | null;
  /** The skills counted as used: read (observed), else ticked in the report's checklist (self-reported). */
  used: string[];
  /** `observed`: from the tool calls the CLI reported; `self-reported`: from the report's Methodology checklist. */
  basis: 'observed' | 'self-reported';
  text: string;
}

/**
 * Required skills the analysis used. Where the agent's CLI reports its tool calls, what it actually read counts;
 * elsewhere only the report's own checklist can say, and the result is marked self-reported.
 */
export function compliance(
  slot: Pick<AnalysisSlot, 'report' | 'adapter' | 'calls'>,
  required: readonly string[],
): Compliance {
  const read = skillsRead(slot);
  const basis = read === null ? 'self-reported' : 'observed';
  const used = read ?? parseReport(slot.report ?? '').methodology;
  if (required.length === 0) return { percent: null, used, basis, text: 'no required skills' };
  const applied = required.filter((name) => used.includes(name));
  const missing = required.filter((name) => !used.includes(name));
  const percent = Math.round((applied.length / required.length) * 100);
  const verb = basis === 'observed' ? 'read (observed from its tool calls)' : 'applied (self-reported)';
  return {
    percent,
    used,
    basis,
    text: `${percent}% of required skills ${verb}${missing.length > 0 ? ` (missing: ${missing.join(', ')})` : ''}`,
  };
}

/** Names of the skills whose files the agent's reported tool calls touched, or null when its CLI reports none. */
function skillsRead(slot: Pick<AnalysisSlot, 'adapter' | 'calls'>): string[] | null {
  const toolInputsOf = slot.adapter.toolInputsOf;
  if (!toolInputsOf) return null;
  const inputs = slot.calls.flatMap((call) => toolInputsOf(call.stdout));
  const names = new Set<string>();
  for (const input of inputs) {
    for (const match of input.matchAll(SKILL_PATH)) names.add(match[1]!);
  }
  return [...names];
}

const SKILL_PATH = new RegExp(`(?:^|[^\\w-])${ANALYSIS_SKILLS_FOLDER}/([a-z0-9]+(?:-[a-z0-9]+)*)/`, 'g');
