import { z } from 'zod';
import { extractJsonObject } from './answer-json.js';
import { CHALLENGE_VERDICTS, type ChallengeVerdict } from './types.js';

/** A challenger's verdict on one analysis' evidence. Annotations for the judge, never vetoes. */
const challengeAnswerSchema = z.object({
  verdict: z.preprocess(
    (value) => (typeof value === 'string' ? value.trim().toUpperCase() : value),
    z.enum(CHALLENGE_VERDICTS),
  ),
  reasoning: z.string().default(''),
  evidence_gaps: z.array(z.string()).default([]),
  verification_reproduced: z.boolean().nullable().default(null),
  contradicting_evidence: z.array(z.string()).default([]),
});
export type ChallengeAnswer = z.output<typeof challengeAnswerSchema>;

export type ChallengeResult =
  | ({ status: 'answered' } & ChallengeAnswer)
  /** The challenger failed, timed out or answered something unreadable: no evidence either way. */
  | { status: 'failed'; verdict: ChallengeVerdict; reasoning: string }
  /** No report to challenge (the analysis failed or timed out). */
  | { status: 'skipped'; reasoning: string };

/** Pure: the challenger's answer, or a failed result saying why (first 200 characters of what it said). */
export function parseChallengeAnswer(text: string): ChallengeResult {
  const parsed = challengeAnswerSchema.safeParse(extractJsonObject(text));
  if (parsed.success) return { status: 'answered', ...parsed.data };
  const snippet = text.trim().slice(0, 200);
  return {
    status: 'failed',
    verdict: 'INSUFFICIENT_EVIDENCE',
    reasoning: `the challenger's answer is not the JSON asked for: ${snippet || '(empty)'}`,
  };
}

export function challengeVerdictOf(result: ChallengeResult): ChallengeVerdict | null {
  return result.status === 'skipped' ? null : result.verdict;
}
