import type { ChangeSetBase, SkippedFile } from '../change-set/types.js';
import { atLeast, type Finding, SEVERITIES, type Severity } from '../finding.js';
import type { ToolExecution } from '../pipeline/execute-tool.js';
import { isPassingStatus, type ToolStatus } from '../result.js';

export type Verdict = 'passed' | 'failed';

export interface ToolReport {
  name: string;
  title: string;
  status: ToolStatus;
  summary: string;
  durationMs: number;
  /** When the validator started (ISO 8601), for the timeline of the HTML report. */
  startedAt?: string;
  findings: Finding[];
  details?: Record<string, unknown>;
  /** Set when the call examined only part of the change (`paths …`, `packages …`): never a pass of the whole. */
  scope?: string;
  /** The validator is required (`validation.required`, `--strict`): being unavailable fails the run. */
  required?: boolean;
}

/** A tool's result lets the run pass: a passing status, and for a required tool, one that really ran. */
export function toolPasses(tool: Pick<ToolReport, 'status' | 'required'>): boolean {
  return isPassingStatus(tool.status) && !(tool.required && tool.status === 'tool_unavailable');
}

/** Everything a report renderer needs; renderers are pure functions of it. */
export interface RunReport {
  tool: 'tollgate';
  version: string;
  runId: string;
  startedAt: string;
  durationMs: number;
  verdict: Verdict;
  repoRoot: string;
  base: ChangeSetBase;
  fingerprint: string;
  changedFiles: number;
  /** The change set's files (path and status), for machine readers of the JSON report. */
  files?: ReadonlyArray<{ path: string; status: string }>;
  ignored: readonly string[];
  skippedFiles: readonly SkippedFile[];
  /** Set when only some validators ran (`--only`/`--skip`): such a run never stands in for a full one. */
  partial: boolean;
  tools: ToolReport[];
  /** Config limits the renderers honour. */
  maxOutputLines: number;
  /** Failed project checks are code scanning alerts in SARIF too (`output.sarifChecks`); else annotations only. */
  sarifChecks?: boolean;
  /** Set when the results could not be stored (a full or read-only disk): the run counts for nothing. */
  notStored?: string;
  /** Validators switched off by config or `TOLLGATE_USE_<NAME>=0`: never silently absent from a verdict. */
  off?: string[];
  /** The config file (repo-relative) the run read, when there is one: where a finding without a file points. */
  configFile?: string;
  /** The line in `configFile` that defines each check, by check name: where a failed check's result points. */
  configLines?: Record<string, number>;
  /** A few masked lines of code around findings, by finding id (HTML report only). */
  codeContext?: Record<string, CodeContext>;
  /** What a stored report (`stored-report.ts`) left out to stay small, in words; shown on the HTML page. */
  left?: string[];
}

export interface CodeContext {
  /** Line number of `lines[0]`. */
  startLine: number;
  lines: string[];
}

/** Where a finding without a file points: the config line that defines its check (the file's top otherwise). */
export function configPlaceOf(report: RunReport, ruleId: string | undefined): { file: string; line: number } {
  return { file: report.configFile ?? 'tollgate.config.yaml', line: report.configLines?.[ruleId ?? ''] ?? 1 };
}

/** Findings not waived: every report still lists them, whether or not they fail their validator. */
export function openFindings(tool: ToolReport): Finding[] {
  return tool.findings.filter((finding) => !finding.waiver);
}

/**
 * Findings that keep the change from passing: the open findings of a validator that did not pass, at or above the
 * severity it fails on when it says (`details.failOn`). A passing validator's findings (below its `failOn`) block
 * nothing, and no report may call them blocking.
 */
export function blockingFindings(tool: ToolReport): Finding[] {
  if (toolPasses(tool)) return [];
  const failOn = tool.details?.failOn;
  const threshold = SEVERITIES.includes(failOn as Severity) ? (failOn as Severity) : null;
  return openFindings(tool).filter((finding) => threshold === null || atLeast(finding.severity, threshold));
}

/** A validator's findings, counted for a report's "Findings:" line: blocking, open but not blocking, and waived. */
export function findingCounts(tool: ToolReport): string {
  const blocking = blockingFindings(tool).length;
  const open = openFindings(tool).length;
  const waived = tool.findings.length - open;
  const parts = [
    ...(blocking > 0 || !toolPasses(tool) ? [`${blocking} blocking`] : []),
    ...(open > blocking ? [`${open - blocking} not blocking (below what fails ${tool.name})`] : []),
    ...(waived > 0 ? [`${waived} waived`] : []),
  ];
  return parts.join(', ');
}

export function verdictOf(tools: readonly ToolReport[]): Verdict {
  return tools.every(toolPasses) ? 'passed' : 'failed';
}

export function toolReport(execution: ToolExecution): ToolReport {
  const { result } = execution;
  return {
    name: execution.toolName,
    title: execution.title,
    status: result.status,
    summary: result.summary,
    durationMs: execution.durationMs,
    ...(execution.startedAt ? { startedAt: execution.startedAt } : {}),
    findings: result.findings,
    ...(result.details ? { details: result.details } : {}),
    ...(execution.scope ? { scope: execution.scope } : {}),
  };
}

/** How each status reads in a heading; shared by every Markdown report (`tollgate run`, `parallel_validation`). */
const STATUS_LABEL: Record<ToolStatus, string> = {
  passed: 'passed',
  failed: 'FAILED',
  skipped_trivial: 'skipped (trivial change)',
  skipped_no_changes: 'skipped (no changes)',
  budget_exhausted: 'NOT RUN (time budget exhausted)',
  timeout: 'TIMED OUT',
  rate_limited: 'RATE LIMITED',
  tool_unavailable: 'unavailable (warning)',
  invalid_input: 'INVALID INPUT',
  incomplete: 'INCOMPLETE',
  error: 'ERROR',
};

/** The heading's status; a required validator that could not run is a failure, not a warning. */
export function statusLabel(tool: Pick<ToolReport, 'status' | 'required' | 'scope'>): string {
  if (tool.required && tool.status === 'tool_unavailable') return 'UNAVAILABLE (required: fails the run)';
  return `${STATUS_LABEL[tool.status]}${tool.scope ? ` (${tool.scope} only)` : ''}`;
}
