import { join } from 'node:path';
import type { AnalysisSlot } from '../analysis-call.js';
import { type ChallengeResult, challengeVerdictOf } from '../challenge-answer.js';
import { confidenceLabel } from '../confidence.js';
import type { EvalResult } from '../evals.js';
import type { JudgeDecision } from '../judge-call.js';
import { parseReport } from '../report.js';
import { renderAlertPage } from '../report-html.js';
import { type DisagreeingReport, renderSummary, type SlotSummary, type ValidateAlertSummary } from '../summary.js';
import { VERDICTS, type Verdict } from '../types.js';
import { addUsage, type CallUsage } from '../usage.js';
import { type Contest, describeContest, findContest, standingVerdict } from './contested.js';
import { diagnostics } from './diagnostics.js';
import { compliance, type JudgeOutcome, requiredSkills } from './judge-reports.js';
import type { AlertSession } from './types.js';

export interface StageResults {
  slots: readonly AnalysisSlot[];
  evals: ReadonlyMap<number, EvalResult>;
  challenges: ReadonlyMap<number, ChallengeResult>;
  judged: JudgeOutcome;
}

/**
 * Stage 7: the winner's report as final-report.md, judge.json, the per-workspace diagnostics, a last scrub of every
 * file the agents wrote, and the summary on stdout. Returns the verdict.
 */
export async function writeOutcome(session: AlertSession, results: StageResults): Promise<Verdict> {
  const { writer, redact, alertDir, subject } = session;
  const { slots, evals, judged } = results;
  const { decision } = judged;
  const winnerSlot = 'winner' in decision ? slots.find((slot) => slot.index === decision.winner) : undefined;
  const winnerReport = winnerSlot?.report ? parseReport(winnerSlot.report) : undefined;
  const winnerVerdict: Verdict = (VERDICTS as readonly string[]).includes(winnerReport?.verdict ?? '')
    ? (winnerReport!.verdict as Verdict)
    : 'INCONCLUSIVE';
  const contest = findContest('winner' in decision ? decision.winner : null, slots, results.challenges);
  const verdict = standingVerdict(winnerVerdict, contest);
  if (winnerSlot?.report) await writer.write('final-report.md', winnerSlot.report);
  const required = requiredSkills(session);
  const slotSummaries = summarizeSlots(results, required, redact);
  const note = decisionNote(decision);
  // A contested verdict is INCONCLUSIVE: the refuted pick's confidence and finding are one side's, shown as such.
  const verdictReport = contest ? undefined : winnerReport;
  const summary: ValidateAlertSummary = {
    repository: `${subject.owner}/${subject.repo}`,
    alertId: subject.alertId,
    source: subject.source,
    secretType: subject.secretType,
    verdict,
    confidence: verdictReport?.confidenceScore ?? null,
    confidenceLabel:
      verdictReport?.confidenceScore !== undefined ? confidenceLabel(verdictReport.confidenceScore) : null,
    riskLevel: verdictReport?.riskLevel ?? null,
    keyFinding: verdictReport?.keyFinding ? redact(verdictReport.keyFinding) : null,
    winner: 'winner' in decision ? decision.winner : null,
    decidedBy: decision.source,
    ...(note ? { note: redact(note) } : {}),
    ...(contest
      ? {
          contested: redact(describeContest(contest)),
          disagreement: disagreementOf(contest, slotSummaries),
        }
      : {}),
    notes: session.notes.map(redact),
    outputDir: alertDir,
    finalReport: winnerSlot?.report ? join(alertDir, 'final-report.md') : null,
    htmlReport: join(alertDir, 'report.html'),
    ...(subject.verification ? { verification: subject.verification } : {}),
    slots: slotSummaries,
  };
  await writer.writeJson('judge.json', judgeRecord(summary, results));
  await writer.write(
    'report.html',
    renderAlertPage({
      summary,
      scores:
        decision.source === 'judge'
          ? decision.answer.scores.map((score) => ({ ...score, rationale: redact(score.rationale) }))
          : null,
      finalReport: winnerSlot?.report ? redact(winnerSlot.report) : null,
    }),
  );
  if (session.options.showUsage) {
    for (const slot of slots) {
      await writer.writeJson(
        join(slot.workspace, 'diagnostics.json'),
        diagnostics(slot.calls, compliance(slot, required), evals.get(slot.index)),
      );
    }
  }
  // Agents wrote scripts, logs and artifacts themselves: mask whatever secret slipped into them.
  await writer.scrubTree(alertDir);
  const rendered = renderSummary(summary, { json: session.options.json, showUsage: session.options.showUsage });
  session.options.stdout(redact(rendered));
  return verdict;
}

/** The refuted pick and each report that confirmed the challenge, side by side. */
function disagreementOf(contest: Contest, slotSummaries: readonly SlotSummary[]): DisagreeingReport[] {
  return [contest.winner, ...contest.confirmed.map((entry) => entry.index)].map((index) => {
    const slot = slotSummaries.find((candidate) => candidate.index === index);
    return {
      report: index,
      agent: slot?.agent ?? 'unknown',
      verdict: slot?.verdict ?? 'no verdict',
      confidence: slot?.confidence ?? null,
      challenge: slot?.challenge ?? null,
    };
  });
}

/** judge.json: who picked which report, why, and every candidate without its usage. */
function judgeRecord(summary: ValidateAlertSummary, { evals, judged }: StageResults): Record<string, unknown> {
  const { decision } = judged;
  return {
    winner_index: summary.winner,
    decided_by: decision.source,
    ...(decision.source === 'judge' ? { scores: decision.answer.scores } : {}),
    ...(summary.note ? { note: summary.note } : {}),
    ...(summary.contested ? { contested: summary.contested } : {}),
    problems: decision.problems,
    agent: judged.calls.length > 0 ? judged.agent : null,
    candidates: summary.slots.map(({ usage: _usage, ...rest }) => rest),
    evals: Object.fromEntries([...evals].map(([index, result]) => [index, result])),
  };
}

/** Each analysis slot as the summary and judge.json show it: status, verdict, evals, challenge, compliance, usage. */
function summarizeSlots(
  { slots, evals, challenges }: StageResults,
  required: readonly string[],
  redact: (text: string) => string,
): SlotSummary[] {
  return slots.map((slot) => {
    const parsed = slot.report ? parseReport(slot.report) : undefined;
    const evalResult = evals.get(slot.index);
    const challenge = challenges.get(slot.index);
    return {
      index: slot.index,
      agent: slot.adapter.name,
      workspace: slot.workspace,
      status: slot.status,
      ...(slot.message ? { message: redact(slot.message) } : {}),
      continuations: slot.continuations,
      ...(parsed?.verdict ? { verdict: parsed.verdict } : {}),
      ...(parsed?.confidenceScore !== undefined ? { confidence: parsed.confidenceScore } : {}),
      evals: evalResult
        ? {
            passed: evalResult.passed,
            score: Math.round(evalResult.score * 100) / 100,
            failed: evalResult.checks.filter((c) => !c.passed).map((c) => c.id),
          }
        : null,
      challenge: challenge ? challengeVerdictOf(challenge) : null,
      compliance: compliance(slot, required).percent,
      complianceBasis: compliance(slot, required).basis,
      usage: slot.calls.reduce<CallUsage>((total, call) => addUsage(total, call.usage), {}),
    };
  });
}

function decisionNote(decision: JudgeDecision): string | undefined {
  return 'note' in decision ? decision.note : undefined;
}
