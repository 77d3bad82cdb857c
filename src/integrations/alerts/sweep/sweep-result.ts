import { z } from 'zod';
import type { ValidateAlertSummary } from '../summary.js';

/**
 * One alert's decision as a sweep keeps it (`result.json` beside `done.json`) and `alerts merge` reads it: what the
 * summary table needs, masked already (it comes from validate-alert's masked summary), with the usage of every call.
 */
export const RESULT_FILE = 'result.json';
/** An alert the sweep could not decide (clone failed, no agent could run): kept for the merge, never counted done. */
export const ERROR_FILE = 'error.json';

const usageSchema = z.object({
  inputTokens: z.number().optional(),
  outputTokens: z.number().optional(),
  costUsd: z.number().optional(),
});

export const sweepResultSchema = z.object({
  repo: z.string().regex(/^[^/\s]+\/[^/\s]+$/),
  number: z.number().int().positive(),
  secretType: z.string(),
  verdict: z.string(),
  confidence: z.number().nullable(),
  confidenceLabel: z.string().nullable(),
  riskLevel: z.string().nullable(),
  keyFinding: z.string().nullable(),
  /** The winning analysis: its slot and the agent that wrote it. */
  winner: z.object({ index: z.number().int(), agent: z.string() }).nullable(),
  decidedBy: z.string(),
  analyses: z.number().int(),
  usage: usageSchema,
  updatedAt: z.string(),
});
export type SweepResult = z.output<typeof sweepResultSchema>;

export const sweepErrorSchema = z.object({
  repo: z.string().regex(/^[^/\s]+\/[^/\s]+$/),
  number: z.number().int().positive(),
  secretType: z.string(),
  message: z.string(),
});
export type SweepError = z.output<typeof sweepErrorSchema>;

export function resultOf(
  summary: ValidateAlertSummary,
  alert: { repo: string; number: number; updatedAt: string },
): SweepResult {
  const winner = summary.winner === null ? undefined : summary.slots.find((slot) => slot.index === summary.winner);
  return {
    repo: alert.repo,
    number: alert.number,
    secretType: summary.secretType,
    verdict: summary.verdict,
    confidence: summary.confidence,
    confidenceLabel: summary.confidenceLabel,
    riskLevel: summary.riskLevel,
    keyFinding: summary.keyFinding,
    winner: winner ? { index: winner.index, agent: winner.agent } : null,
    decidedBy: summary.decidedBy,
    analyses: summary.slots.length,
    usage: totalUsage(summary.slots.map((slot) => slot.usage)),
    updatedAt: alert.updatedAt,
  };
}

/** Sums what the CLIs reported; a field no call reported stays absent (unknown is not zero). */
export function totalUsage(usages: ReadonlyArray<z.input<typeof usageSchema>>): SweepResult['usage'] {
  const total: SweepResult['usage'] = {};
  for (const usage of usages) {
    for (const key of ['inputTokens', 'outputTokens', 'costUsd'] as const) {
      const value = usage[key];
      if (value !== undefined) total[key] = (total[key] ?? 0) + value;
    }
  }
  return total;
}
