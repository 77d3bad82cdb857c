import type { ToolStatus } from '../result.js';

/**
 * Local-only telemetry: one JSONL file per run (`.tollgate/runs/<runId>/telemetry.jsonl`), never sent anywhere.
 * Mirrors what Copilot's validators record per tool: success, duration, timeouts,
 * alert count, the agent's trivial-change declaration against what was found, and why a call was skipped.
 */
export const TELEMETRY_FILE = 'telemetry.jsonl';

/**
 * Why a call or a tool did not run its validators. A tool's `invalid_input` is not a skip but its own category
 * (`tollgate stats` counts it apart); it stays here because a whole call refused for bad input is recorded with it,
 * as tools' records of older versions were.
 */
export const SKIP_REASONS = [
  'no_changes',
  'trivial_change',
  'budget_exhausted',
  'circuit_breaker',
  'invalid_input',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** Where the run came from: `tollgate run`, or an MCP call (`parallel_validation`, `code_review`, …). */
export const TELEMETRY_SOURCES = ['run', 'mcp'] as const;

/** An agent CLI that reviewed: its version number (`--version`) and the model configured for it (null: its default). */
export interface ReviewerTelemetry {
  cli: string;
  cliVersion: string | null;
  model: string | null;
}

/** The CodeQL CLI that ran: its version (null when it did not say) and whether an overlay database was used. */
export interface CodeqlTelemetry {
  version: string | null;
  overlay: boolean;
}

/** One validator's result in a run. */
export interface ToolTelemetry {
  type: 'validation.tool';
  at: string;
  runId: string;
  source: (typeof TELEMETRY_SOURCES)[number];
  tool: string;
  status: string;
  success: boolean;
  durationMs: number;
  timedOut: boolean;
  /** Blocking (unwaived) findings. */
  alertCount: number;
  /** Time the run would have saved had the agent's "trivial" been trusted and the tool skipped. */
  potentialSavingsMs: number;
  /** The agent's declaration for this tool, null when it made none. */
  trivialDeclared: boolean | null;
  /** Declared trivial, yet the tool found something. */
  disagreement: boolean;
  skipReason: SkipReason | null;
  /** code_review: the CLIs that reviewed. Absent when none did, and in records of older versions. */
  reviewers?: ReviewerTelemetry[];
  /** static_analysis: the CodeQL that ran. Absent when CodeQL did not run, and in records of older versions. */
  codeql?: CodeqlTelemetry;
}

/** A call as a whole (an MCP tool call). */
export interface CallTelemetry {
  type: 'validation.call';
  at: string;
  runId: string;
  source: (typeof TELEMETRY_SOURCES)[number];
  /** `tollgate run`, or the MCP tool name. */
  call: string;
  status: string;
  durationMs: number;
  tools: string[];
  skipReason: SkipReason | null;
}

/** A run a signal ended before it finished: written by the abort handler, since the run never reaches its end. */
export interface InterruptedRunTelemetry {
  type: 'validation.interrupted';
  at: string;
  runId: string;
  source: (typeof TELEMETRY_SOURCES)[number];
  signal: string;
  durationMs: number;
  /** The validators whose calls had started and not completed. */
  tools: string[];
}

export type TelemetryRecord = ToolTelemetry | CallTelemetry | InterruptedRunTelemetry;

export function skipReasonOf(status: ToolStatus): SkipReason | null {
  switch (status) {
    case 'skipped_no_changes':
      return 'no_changes';
    case 'skipped_trivial':
      return 'trivial_change';
    case 'budget_exhausted':
      return 'budget_exhausted';
    case 'invalid_input':
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
