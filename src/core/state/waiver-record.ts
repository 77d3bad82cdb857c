import { z } from 'zod';
import { SEVERITIES } from '../finding.js';

/** One accepted risk: which finding, why, who, when, and until when. */
export const waiverRecordSchema = z.object({
  findingId: z.string().min(1),
  reason: z.string().min(1),
  by: z.string(),
  at: z.string(),
  severity: z.enum(SEVERITIES).optional(),
  tool: z.string().optional(),
  title: z.string().optional(),
  /** ISO time after which the waiver no longer applies. */
  expiresAt: z.string().optional(),
  /** From the committed `tollgate.waivers.yaml` (as it is in HEAD), not this clone's `.tollgate/`. */
  committed: z.boolean().optional(),
});
export type WaiverRecord = z.output<typeof waiverRecordSchema>;
