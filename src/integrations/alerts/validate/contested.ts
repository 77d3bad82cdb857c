import type { AnalysisSlot } from '../analysis-call.js';
import { type ChallengeResult, challengeVerdictOf } from '../challenge-answer.js';
import { parseReport } from '../report.js';
import type { Verdict } from '../types.js';

/** A winner whose evidence did not survive its challenge, beaten on the evidence by another report. */
export interface Contest {
  winner: number;
  winnerVerdict: string;
  /** Reports whose challenge CONFIRMED them and whose verdict differs from the winner's. */
  confirmed: Array<{ index: number; verdict: string }>;
}

/**
 * Pure. The judge (or the fallback ranking) may still pick a report whose challenge was REFUTED. When another report
 * with a different verdict was CONFIRMED, the winner's verdict cannot stand on its own: a refuted FALSE_POSITIVE must
 * never silently clear a live key that a confirmed report calls TRUE_POSITIVE. Null when there is no such conflict.
 */
export function findContest(
  winner: number | null,
  slots: readonly AnalysisSlot[],
  challenges: ReadonlyMap<number, ChallengeResult>,
): Contest | null {
  if (winner === null) return null;
  const winnerChallenge = challenges.get(winner);
  if (!winnerChallenge || challengeVerdictOf(winnerChallenge) !== 'REFUTED') return null;
  const winnerVerdict = verdictOf(slots.find((slot) => slot.index === winner));
  const confirmed: Contest['confirmed'] = [];
  for (const slot of slots) {
    if (slot.index === winner) continue;
    const result = challenges.get(slot.index);
    // Only an answered CONFIRMED counts: a challenger that failed says nothing either way.
    if (result?.status !== 'answered' || result.verdict !== 'CONFIRMED') continue;
    const verdict = verdictOf(slot);
    if (verdict !== null && verdict !== winnerVerdict) confirmed.push({ index: slot.index, verdict });
  }
  return confirmed.length === 0 ? null : { winner, winnerVerdict: winnerVerdict ?? 'no verdict', confirmed };
}

/** The verdict that stands: INCONCLUSIVE when the winner was refuted and a confirmed report disagrees. */
export function standingVerdict(verdict: Verdict, contest: Contest | null): Verdict {
  return contest === null ? verdict : 'INCONCLUSIVE';
}

/** One line for the summary, judge.json and the HTML page. */
export function describeContest(contest: Contest): string {
  const others = contest.confirmed.map((entry) => `report ${entry.index} (${entry.verdict})`).join(', ');
  return `report ${contest.winner} (${contest.winnerVerdict}) won although its challenge was REFUTED, while ${others} was CONFIRMED: the verdict is INCONCLUSIVE until a person reads both`;
}

function verdictOf(slot: AnalysisSlot | undefined): string | null {
  if (slot?.status !== 'completed' || !slot.report) return null;
  return parseReport(slot.report).verdict ?? null;
}
