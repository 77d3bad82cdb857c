import { z } from 'zod';

/**
 * The two payloads an agent writes: the triage of `tollgate comments --triage-payload` and the fix report of
 * `tollgate fix-comments --payload`. Their JSON Schemas in `schemas/` are generated from these (a test keeps the
 * shipped files equal to `z.toJSONSchema` of them). Field names follow pi-codeflow's (the review loop it started) so payloads
 * agents already write keep working.
 */

export const CLASSIFICATIONS = ['valid', 'invalid', 'stale', 'already_fixed', 'needs_human'] as const;
export const classificationSchema = z.enum(CLASSIFICATIONS);
export type Classification = z.output<typeof classificationSchema>;

const threadIdSchema = z
  .string()
  .min(1)
  .describe('GitHub pull request review thread node id (PRRT_…), not a comment id.');
const pathListSchema = z.array(z.string().min(1)).describe('Repo-relative paths.');

/**
 * needs_human ⇒ requiresHumanDecision; requiresHumanDecision ⇒ never canResolveAfterChecks. JSON Schema's `if`/`then`
 * keywords, not a thenable: these objects are only ever serialized.
 */
const humanDecisionRules = [
  {
    if: { properties: { classification: { const: 'needs_human' } } },
    // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
    then: { properties: { requiresHumanDecision: { const: true }, canResolveAfterChecks: { const: false } } },
  },
  {
    if: { properties: { requiresHumanDecision: { const: true } } },
    // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
    then: { properties: { canResolveAfterChecks: { const: false } } },
  },
];

const triagedThreadSchema = z
  .strictObject({
    threadId: threadIdSchema,
    classification: classificationSchema,
    confidence: z.number().min(0).max(1),
    reason: z.string().min(1).describe('Why this classification, checked against the current code.'),
    recommendedAction: z.string().min(1),
    filesToInspect: pathListSchema,
    filesToChange: pathListSchema,
    checksToRun: z.array(z.string().min(1)),
    replyBody: z.string().min(1).describe('Draft reply; `tollgate comments` stores nothing of it and never posts it.'),
    canResolveAfterChecks: z.boolean(),
    requiresHumanDecision: z.boolean(),
  })
  .meta({ allOf: humanDecisionRules });
export type TriagedThread = z.output<typeof triagedThreadSchema>;

export const triagePayloadSchema = z.strictObject({ threads: z.array(triagedThreadSchema) }).meta({
  title: 'tollgate review-comment triage',
  description: 'Input of `tollgate comments --triage-payload FILE`.',
});
export type TriagePayload = z.output<typeof triagePayloadSchema>;

const MAX_EVIDENCE_LENGTH = 1000;
export const MAX_REPLY_LENGTH = 4000;
const evidenceListSchema = z.array(z.string().min(1).max(MAX_EVIDENCE_LENGTH));

const fixItemSchema = z.strictObject({
  threadId: threadIdSchema,
  classification: classificationSchema,
  fixSummary: z.string().min(1).max(2000).optional().describe('What changed (valid) or the evidence (others).'),
  verification: evidenceListSchema.describe('What was checked, one item each (commands run and their outcome).'),
  checksRun: evidenceListSchema.describe('The checks run after the fix.'),
  commitSha: z
    .string()
    .regex(/^[0-9a-fA-F]{7,40}$/)
    .optional()
    .describe('The commit that holds the fix (required to resolve a valid thread).'),
  files: pathListSchema
    .optional()
    .describe(
      'The files this fix changed, uncommitted: `fix-comments --commit` commits them (one commit per group of threads that share a file) and sets commitSha.',
    ),
  replyBody: z
    .string()
    .min(1)
    .max(MAX_REPLY_LENGTH)
    .optional()
    .describe('Your own words for the reply; replaces the generated response text.'),
  resolveRequested: z.boolean(),
  humanDecision: z.string().min(1).max(2000).optional().describe('The decision a person must make (needs_human).'),
});
export type FixItem = z.output<typeof fixItemSchema>;

export const fixPayloadSchema = z
  .strictObject({
    prNumber: z.number().int().min(1).optional(),
    items: z.array(fixItemSchema).min(1),
  })
  .meta({ title: 'tollgate review-comment fix', description: 'Input of `tollgate fix-comments --payload FILE`.' });
export type FixPayload = z.output<typeof fixPayloadSchema>;

/** The shipped JSON Schema text of a payload schema (draft 2020-12), as `schemas/*.schema.json` holds it. */
export function payloadJsonSchemaText(schema: z.ZodType): string {
  return `${JSON.stringify(z.toJSONSchema(schema, { target: 'draft-2020-12' }), null, 2)}\n`;
}

export const PAYLOAD_SCHEMA_FILES = {
  'schemas/review-comment-triage.schema.json': triagePayloadSchema,
  'schemas/review-comment-fix.schema.json': fixPayloadSchema,
} as const;
