import { z } from 'zod';
import { answerJsonSchema } from '../../agents/answer-json-schema.js';
import { extractJsonObject } from './answer-json.js';
import type { ChallengeVerdict } from './types.js';

/** The judge answers strict JSON; the schema is also handed to CLIs that enforce one (Claude `--json-schema`). */
const judgeAnswerSchema = z
  .object({
    winner_index: z.number().int().min(0),
    scores: z
      .array(
        z.object({ index: z.number().int().min(0), score: z.number().min(0).max(10), rationale: z.string() }).strict(),
      )
      .min(1),
  })
  .strict();
export type JudgeAnswer = z.output<typeof judgeAnswerSchema>;

/** The same shape as a JSON Schema, derived (`answerJsonSchema`). */
export const JUDGE_JSON_SCHEMA = answerJsonSchema(judgeAnswerSchema);

export type JudgeParse = { ok: true; answer: JudgeAnswer } | { ok: false; problem: string };

/** Pure: validates the judge's answer against the schema and the reports that exist (`candidates`). */
export function parseJudgeAnswer(text: string, structured: unknown, candidates: readonly number[]): JudgeParse {
  const value = structured ?? extractJsonObject(text);
  if (value === undefined) return { ok: false, problem: 'no JSON object in the answer' };
  const parsed = judgeAnswerSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, problem: `${issue?.path.join('.') || 'answer'}: ${issue?.message ?? 'invalid'}` };
  }
  if (!candidates.includes(parsed.data.winner_index)) {
    return {
      ok: false,
      problem: `winner_index ${parsed.data.winner_index} is not a report index (${candidates.join(', ')})`,
    };
  }
  const stray = parsed.data.scores.find((score) => !candidates.includes(score.index));
  if (stray) return { ok: false, problem: `scores: index ${stray.index} is not a report index` };
  return { ok: true, answer: parsed.data };
}

export interface FallbackCandidate {
  index: number;
  evalScore: number;
  evalPassed: boolean;
  challenge: ChallengeVerdict | null;
}

const CHALLENGE_RANK: Record<ChallengeVerdict, number> = { CONFIRMED: 2, INSUFFICIENT_EVIDENCE: 1, REFUTED: 0 };

/**
 * Pure: the winner when the judge gives no valid answer. Refuted reports lose to any other; then passing the error
 * evals; then the highest eval score; then the better challenge result; then the lower index.
 */
export function fallbackWinner(candidates: readonly FallbackCandidate[]): number | null {
  const ranked = [...candidates].sort(
    (a, b) =>
      Number(a.challenge === 'REFUTED') - Number(b.challenge === 'REFUTED') ||
      Number(b.evalPassed) - Number(a.evalPassed) ||
      b.evalScore - a.evalScore ||
      (b.challenge ? CHALLENGE_RANK[b.challenge] : 1) - (a.challenge ? CHALLENGE_RANK[a.challenge] : 1) ||
      a.index - b.index,
  );
  return ranked[0]?.index ?? null;
}
