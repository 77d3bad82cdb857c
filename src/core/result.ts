import type { Finding } from './finding.js';

/** The name under which a run reports policy edits that no person accepted, beside the validators' results. */
export const POLICY_RESULT_NAME = 'policy';

/**
 * The status taxonomy every tool reports. The status alone says what happened;
 * a result carries no flags beside it.
 */
export const TOOL_STATUSES = [
  'passed',
  'failed',
  'skipped_trivial',
  'skipped_no_changes',
  'budget_exhausted',
  'timeout',
  'rate_limited',
  'tool_unavailable',
  'invalid_input',
  // Ran, but did not examine everything it had to (an unreadable or vanished changed file, a tree that changed under
  // the run, a scope narrower than the change set). Never a pass.
  'incomplete',
  'error',
] as const;
export type ToolStatus = (typeof TOOL_STATUSES)[number];

/** Statuses that let the gate pass. `tool_unavailable` is a warning: the tool could not run here, and says how to fix it. */
export function isPassingStatus(status: ToolStatus): boolean {
  switch (status) {
    case 'passed':
    case 'skipped_trivial':
    case 'skipped_no_changes':
    case 'tool_unavailable':
      return true;
    case 'failed':
    case 'budget_exhausted':
    case 'timeout':
    case 'rate_limited':
    case 'invalid_input':
    case 'incomplete':
    case 'error':
      return false;
  }
}

/**
 * Statuses in which the tool could not do its job (as opposed to `failed`, a job done that found problems): they run
 * `postToolUseFailure` hooks and count as unsuccessful in telemetry.
 */
export const FAILURE_STATUSES: ReadonlySet<ToolStatus> = new Set([
  'error',
  'timeout',
  'budget_exhausted',
  'rate_limited',
  'invalid_input',
  'incomplete',
  'tool_unavailable',
]);

/** Only a real, complete success may become the baseline that a later `skipped_no_changes` stands on. */
export function isSuccessfulRun(status: ToolStatus): boolean {
  return status === 'passed';
}

/** What a tool returns from `run`. */
export interface ToolResult {
  status: ToolStatus;
  /** One or two sentences for people and agents: what happened, why, and what to do next. */
  summary: string;
  findings: Finding[];
  /** Tool-specific structured detail for the JSON report (per-check exit codes, per-language status, …). */
  details?: Record<string, unknown>;
}

export function result(
  status: ToolStatus,
  summary: string,
  findings: Finding[] = [],
  details?: Record<string, unknown>,
): ToolResult {
  return details === undefined ? { status, summary, findings } : { status, summary, findings, details };
}
