import { z } from 'zod';
import { answerJsonSchema } from '../../agents/answer-json-schema.js';
import { REVIEW_SEVERITIES } from './severities.js';

export { REVIEW_SEVERITIES };

/** What each reviewer must answer. Extra keys are ignored; the listed ones are checked. */
const lineSchema = z
  .union([
    z.number().int().min(0),
    // Some models quote numbers.
    z
      .string()
      .regex(/^\s*\d+\s*$/)
      .transform(Number),
    z.null(),
  ])
  .optional()
  .transform((line) => (line === null || line === undefined || line === 0 ? undefined : line));

const severitySchema = z.preprocess(
  (value) => (typeof value === 'string' ? value.trim().toLowerCase() : value),
  z.enum(REVIEW_SEVERITIES),
);

const optionalText = z
  .string()
  .nullish()
  .transform((text) => (text === null || text === undefined || text.trim() === '' ? undefined : text));

/**
 * What each reviewer is asked to answer, declared once: the JSON Schema handed to CLIs that constrain their answer
 * (Claude `--json-schema`, Codex `--output-schema`) is derived from it. OpenAI's strict mode wants every property
 * required and no extra ones, so optional fields are nullable instead.
 */
const requestedFindingSchema = z
  .object({
    path: z.string().describe('Repository-relative path of the file.'),
    line: z.number().int().nullable().describe('Line in the new version of the file; null for the whole file.'),
    severity: z.enum(REVIEW_SEVERITIES),
    title: z.string().describe('One line: what is wrong.'),
    body: z.string().describe('Why it is wrong and what breaks.'),
    suggestion: z.string().nullable().describe('How to fix it, or null.'),
    exclusionReason: z
      .string()
      .nullable()
      .describe('Null, or why this finding should not block the change (pre-existing, out of scope).'),
  })
  .strict();

export const requestedReviewAnswerSchema = z
  .object({ status: z.enum(['pass', 'fail']), findings: z.array(requestedFindingSchema) })
  .strict();

let requestedJsonSchema: Record<string, unknown> | null = null;

/** The requested answer as a JSON Schema; derived when a review first needs it, not by every command that loads this. */
export function reviewAnswerJsonSchema(): Record<string, unknown> {
  requestedJsonSchema ??= answerJsonSchema(requestedReviewAnswerSchema);
  return requestedJsonSchema;
}

/**
 * What is accepted: the requested keys, read leniently (models quote numbers, vary case, leave optional keys out or
 * add their own). Every key is the requested one's; only how it is read differs.
 */
const answerFindingSchema = z.object({
  ...requestedFindingSchema.shape,
  ...({
    path: z.string().trim().min(1),
    line: lineSchema,
    severity: severitySchema,
    title: z.string().trim().min(1),
    body: z.string().default(''),
    suggestion: optionalText,
    /** Set by the reviewer for a finding it noticed but judged out of scope: dropped and counted. */
    exclusionReason: optionalText,
  } satisfies Partial<Record<keyof typeof requestedFindingSchema.shape, z.ZodType>>),
});
export type AnswerFinding = z.output<typeof answerFindingSchema>;

export const reviewAnswerSchema = z.object({
  ...requestedReviewAnswerSchema.shape,
  status: z.preprocess(
    (value) => (typeof value === 'string' ? value.trim().toLowerCase() : value),
    requestedReviewAnswerSchema.shape.status,
  ),
  findings: z.array(answerFindingSchema),
});
export type ReviewAnswer = z.output<typeof reviewAnswerSchema>;
