import { z } from 'zod';
import { lazy } from '../lazy.js';
import { SKIP_REASONS, TELEMETRY_SOURCES, type TelemetryRecord } from './records.js';

/** What `tollgate stats` reads back, checked: the records' types live in records.ts, which loads no zod. */
const toolRecordSchema = () =>
  z.object({
    type: z.literal('validation.tool'),
    at: z.string(),
    runId: z.string(),
    source: z.enum(TELEMETRY_SOURCES),
    tool: z.string(),
    status: z.string(),
    success: z.boolean(),
    durationMs: z.number(),
    timedOut: z.boolean(),
    /** Blocking (unwaived) findings. */
    alertCount: z.number().int(),
    /** Time the run would have saved had the agent's "trivial" been trusted and the tool skipped. */
    potentialSavingsMs: z.number(),
    /** The agent's declaration for this tool, null when it made none. */
    trivialDeclared: z.boolean().nullable(),
    /** Declared trivial, yet the tool found something. */
    disagreement: z.boolean(),
    skipReason: z.enum(SKIP_REASONS).nullable(),
    reviewers: z
      .array(z.object({ cli: z.string(), cliVersion: z.string().nullable(), model: z.string().nullable() }))
      .optional(),
    codeql: z.object({ version: z.string().nullable(), overlay: z.boolean() }).optional(),
  });

const callRecordSchema = () =>
  z.object({
    type: z.literal('validation.call'),
    at: z.string(),
    runId: z.string(),
    source: z.enum(TELEMETRY_SOURCES),
    /** `tollgate run`, or the MCP tool name. */
    call: z.string(),
    status: z.string(),
    durationMs: z.number(),
    tools: z.array(z.string()),
    skipReason: z.enum(SKIP_REASONS).nullable(),
  });

const interruptedRecordSchema = () =>
  z.object({
    type: z.literal('validation.interrupted'),
    at: z.string(),
    runId: z.string(),
    source: z.enum(TELEMETRY_SOURCES),
    signal: z.string(),
    durationMs: z.number(),
    tools: z.array(z.string()),
  });

/** Built on first use: only `tollgate stats` reads the records back (start-up: no other command pays for them). */
export const telemetryRecordSchema = lazy(
  (): z.ZodType<TelemetryRecord> =>
    z.discriminatedUnion('type', [toolRecordSchema(), callRecordSchema(), interruptedRecordSchema()]),
);
