import { z } from 'zod';

/**
 * The parts of SARIF 2.1.0 that tollgate reads (OASIS sarif-v2.1.0-errata01, §3). Unknown properties are allowed
 * and dropped: producers add their own, and the spec lets them. A run's `results` are validated one by one as they
 * stream past (see `read-sarif.ts`), so this file holds per-piece schemas rather than one for the whole log.
 */

const messageSchema = z.object({
  text: z.string().optional(),
  markdown: z.string().optional(),
  id: z.string().optional(),
  arguments: z.array(z.string()).optional(),
});

const positiveInt = z.number().int().min(0);

const artifactLocationSchema = z.object({
  uri: z.string().optional(),
  uriBaseId: z.string().optional(),
  index: z.number().int().min(-1).optional(),
});
export type ArtifactLocation = z.output<typeof artifactLocationSchema>;

const regionSchema = z.object({
  startLine: positiveInt.optional(),
  startColumn: positiveInt.optional(),
  endLine: positiveInt.optional(),
  endColumn: positiveInt.optional(),
  snippet: z.object({ text: z.string().optional() }).optional(),
});

const locationSchema = z.object({
  // A result's message links to its related locations by id (`[user-provided value](1)`).
  id: z.number().int().min(-1).optional(),
  physicalLocation: z
    .object({
      artifactLocation: artifactLocationSchema.optional(),
      region: regionSchema.optional(),
    })
    .optional(),
  message: messageSchema.optional(),
});
export type SarifLocation = z.output<typeof locationSchema>;

const codeFlowSchema = z.object({
  message: messageSchema.optional(),
  threadFlows: z
    .array(
      z.object({
        locations: z.array(z.object({ location: locationSchema.optional() })).default([]),
      }),
    )
    .default([]),
});

const fingerprintsSchema = z.record(z.string(), z.string());

export const resultSchema = z.object({
  ruleId: z.string().optional(),
  ruleIndex: z.number().int().min(-1).optional(),
  rule: z.object({ id: z.string().optional(), index: z.number().int().min(-1).optional() }).optional(),
  level: z.enum(['none', 'note', 'warning', 'error']).optional(),
  kind: z.string().optional(),
  message: messageSchema,
  locations: z.array(locationSchema).optional(),
  relatedLocations: z.array(locationSchema).optional(),
  partialFingerprints: fingerprintsSchema.optional(),
  fingerprints: fingerprintsSchema.optional(),
  codeFlows: z.array(codeFlowSchema).optional(),
  baselineState: z.string().optional(),
  suppressions: z.array(z.object({ kind: z.string().optional(), status: z.string().optional() })).optional(),
  properties: z.record(z.string(), z.unknown()).optional(),
});
export type SarifResult = z.output<typeof resultSchema>;

const multiformatSchema = z.object({ text: z.string().optional(), markdown: z.string().optional() });

const ruleSchema = z.object({
  id: z.string(),
  name: z.string().optional(),
  shortDescription: multiformatSchema.optional(),
  fullDescription: multiformatSchema.optional(),
  help: multiformatSchema.optional(),
  helpUri: z.string().optional(),
  defaultConfiguration: z.object({ level: z.enum(['none', 'note', 'warning', 'error']).optional() }).optional(),
  properties: z
    .object({
      tags: z.array(z.string()).optional(),
      // GitHub reads it as a string ("8.8"); some producers write a number.
      'security-severity': z.union([z.string(), z.number()]).optional(),
      precision: z.string().optional(),
      'problem.severity': z.string().optional(),
      kind: z.string().optional(),
    })
    .optional(),
});
export type SarifRule = z.output<typeof ruleSchema>;

export const toolSchema = z.object({
  driver: z.object({
    name: z.string().min(1),
    version: z.string().optional(),
    semanticVersion: z.string().optional(),
    informationUri: z.string().optional(),
    rules: z.array(ruleSchema).optional(),
  }),
  extensions: z.array(z.object({ name: z.string(), rules: z.array(ruleSchema).optional() })).optional(),
});
export type SarifTool = z.output<typeof toolSchema>;

/** `originalUriBaseIds`: what each `uriBaseId` stands for (§3.14.14). */
export const uriBaseIdsSchema = z.record(
  z.string(),
  z.object({ uri: z.string().optional(), uriBaseId: z.string().optional() }),
);
export type UriBaseIds = z.output<typeof uriBaseIdsSchema>;

/** `artifacts`: a result may name its file only by `artifactLocation.index` into this list. */
export const artifactsSchema = z.array(z.object({ location: artifactLocationSchema.optional() }));
export type SarifArtifacts = z.output<typeof artifactsSchema>;

export const versionSchema = z.literal('2.1.0', {
  error: (issue) => `expected "2.1.0", got ${JSON.stringify(issue.input)}`,
});

/** `a.b[0].c` from a zod issue path, prefixed by where the piece sits in the log. */
export function issueWhere(prefix: string, issue: z.core.$ZodIssue): string {
  let where = prefix;
  for (const part of issue.path)
    where += typeof part === 'number' ? `[${part}]` : where ? `.${String(part)}` : String(part);
  return where;
}
