import { z } from 'zod';

/** What each reviewer must answer. Extra keys are ignored; the listed ones are checked. */
export const REVIEW_SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;

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

const answerFindingSchema = z.object({
  path: z.string().trim().min(1),
  line: lineSchema,
  severity: severitySchema,
  title: z.string().trim().min(1),
  body: z.string().default(''),
  suggestion: optionalText,
  /** Set by the reviewer for a finding it noticed but judged out of scope: dropped and counted. */
  exclusionReason: optionalText,
});
export type AnswerFinding = z.output<typeof answerFindingSchema>;

export const reviewAnswerSchema = z.object({
  status: z.preprocess(
    (value) => (typeof value === 'string' ? value.trim().toLowerCase() : value),
    z.enum(['pass', 'fail']),
  ),
  findings: z.array(answerFindingSchema),
});
export type ReviewAnswer = z.output<typeof reviewAnswerSchema>;

/**
 * The same shape as a JSON Schema, for CLIs that constrain their answer with one (Claude `--json-schema`, Codex
 * `--output-schema`). OpenAI's strict mode wants every property required and no extra ones, so optional fields are
 * nullable instead.
 */
export const reviewAnswerJsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['status', 'findings'],
  properties: {
    status: { type: 'string', enum: ['pass', 'fail'] },
    findings: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['path', 'line', 'severity', 'title', 'body', 'suggestion', 'exclusionReason'],
        properties: {
          path: { type: 'string', description: 'Repository-relative path of the file.' },
          line: {
            type: ['integer', 'null'],
            description: 'Line in the new version of the file; null for the whole file.',
          },
          severity: { type: 'string', enum: [...REVIEW_SEVERITIES] },
          title: { type: 'string', description: 'One line: what is wrong.' },
          body: { type: 'string', description: 'Why it is wrong and what breaks.' },
          suggestion: { type: ['string', 'null'], description: 'How to fix it, or null.' },
          exclusionReason: {
            type: ['string', 'null'],
            description: 'Null, or why this finding should not block the change (pre-existing, out of scope).',
          },
        },
      },
    },
  },
} as const;
