import { z } from 'zod';
import { SEVERITIES } from '../finding.js';
import { lazy } from '../lazy.js';

/**
 * How a waiver was made, as far as a local check can tell. None of it proves a person: a terminal can be borrowed
 * (`script -qc`), markers can be unset. It is recorded so that reports and reviewers can see it.
 * - `terminal`: standard input was a terminal and no agent marker was set;
 * - `agent-env`: an agent's marker was set (`CLAUDECODE`, `GEMINI_CLI`, …);
 * - `no-terminal`: no marker, but no terminal either (a script, a pipe).
 */
export const waiverOriginSchema = lazy(() =>
  z.object({
    kind: z.enum(['terminal', 'agent-env', 'no-terminal']),
    tty: z.boolean(),
    agentMarkers: z.array(z.string()),
  }),
);
export type WaiverOrigin = z.output<ReturnType<typeof waiverOriginSchema>>;

/** One accepted risk: which finding, why, who, when, and until when. */
export const waiverRecordSchema = lazy(() =>
  z.object({
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
    madeBy: waiverOriginSchema().optional(),
    /**
     * A local high or critical waiver holds only until the change is committed: it records the commit HEAD was at
     * ('' before the first commit) and lapses once HEAD moves.
     */
    head: z.string().optional(),
  }),
);
export type WaiverRecord = z.output<ReturnType<typeof waiverRecordSchema>>;
