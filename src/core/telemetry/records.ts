import { z } from 'zod';
import { lazy } from '../lazy.js';
import type { ToolStatus } from '../result.js';

/**
 * Local-only telemetry: one JSONL file per run (`.tollgate/runs/<runId>/telemetry.jsonl`), never sent anywhere.
 * Mirrors what Copilot's validators record per tool: success, duration, timeouts,
 * alert count, the agent's trivial-change declaration against what was found, and why a call was skipped.
 */
export const TELEMETRY_FILE = 'telemetry.jsonl';

/** Why a call or a tool did not run its validators. */
export const SKIP_REASONS = [
  'no_changes',
  'trivial_change',
  'budget_exhausted',
  'circuit_breaker',
  'invalid_input',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** Where the run came from: `tollgate run`, or an MCP call (`parallel_validation`, `code_review`, …). */
const TELEMETRY_SOURCES = ['run', 'mcp'] as const;

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
  });
export type ToolTelemetry = z.output<ReturnType<typeof toolRecordSchema>>;

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
export type CallTelemetry = z.output<ReturnType<typeof callRecordSchema>>;

/** Built on first use: only `tollgate stats` reads the records back (issue 32's start-up target). */
export const telemetryRecordSchema = lazy(() => z.discriminatedUnion('type', [toolRecordSchema(), callRecordSchema()]));
export type TelemetryRecord = z.output<ReturnType<typeof telemetryRecordSchema>>;

export function skipReasonOf(status: ToolStatus): SkipReason | null {
  switch (status) {
    case 'skipped_no_changes':
      return 'no_changes';
    case 'skipped_trivial':
      return 'trivial_change';
    case 'budget_exhausted':
      return 'budget_exhausted';
    case 'invalid_input':
      return 'invalid_input';
    case 'passed':
    case 'failed':
    case 'timeout':
    case 'rate_limited':
    case 'tool_unavailable':
    case 'incomplete':
    case 'error':
      return null;
  }
}
