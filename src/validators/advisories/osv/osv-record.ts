import { z } from 'zod';

/**
 * The parts of an OSV record (https://ossf.github.io/osv-schema/, v1.7) tollgate reads. Every source (OSV API,
 * GitHub, an offline export) normalizes to this shape.
 */
const eventSchema = z.union([
  z.object({ introduced: z.string() }),
  z.object({ fixed: z.string() }),
  z.object({ last_affected: z.string() }),
  z.object({ limit: z.string() }),
]);
export type OsvEvent = z.output<typeof eventSchema>;

const severitySchema = z.object({ type: z.string(), score: z.string() });

const osvRangeSchema = z.object({
  type: z.string(),
  events: z.array(eventSchema).default([]),
  repo: z.string().optional(),
});
export type OsvRange = z.output<typeof osvRangeSchema>;

const osvAffectedSchema = z.object({
  package: z.object({ ecosystem: z.string(), name: z.string(), purl: z.string().optional() }).optional(),
  ranges: z.array(osvRangeSchema).default([]),
  versions: z.array(z.string()).default([]),
  severity: z.array(severitySchema).optional(),
  database_specific: z.record(z.string(), z.unknown()).optional(),
});
export type OsvAffected = z.output<typeof osvAffectedSchema>;

export const osvRecordSchema = z.object({
  id: z.string().min(1),
  modified: z.string().optional(),
  published: z.string().optional(),
  withdrawn: z.string().optional(),
  aliases: z.array(z.string()).default([]),
  summary: z.string().optional(),
  details: z.string().optional(),
  severity: z.array(severitySchema).optional(),
  affected: z.array(osvAffectedSchema).default([]),
  references: z.array(z.object({ type: z.string(), url: z.string() })).optional(),
  database_specific: z.record(z.string(), z.unknown()).optional(),
});
export type OsvRecord = z.output<typeof osvRecordSchema>;
