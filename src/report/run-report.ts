import type { ChangeSetBase, SkippedFile } from '../core/change-set/types.js';
import type { Finding } from '../core/finding.js';
import type { ToolExecution } from '../core/pipeline/execute-tool.js';
import { isPassingStatus, type ToolStatus } from '../core/result.js';

export type Verdict = 'passed' | 'failed';

export interface ToolReport {
  name: string;
  title: string;
  status: ToolStatus;
  summary: string;
  durationMs: number;
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
  /** Set when the results could not be stored (a full or read-only disk): the run counts for nothing. */
  notStored?: string;
  /** Validators switched off by config or `TOLLGATE_USE_<NAME>=0`: never silently absent from a verdict. */
  off?: string[];
  /** The config file (repo-relative) the run read, when there is one: where a finding without a file points. */
  configFile?: string;
  /** The line in `configFile` that defines each check, by check name: where a failed check's result points. */
  configLines?: Record<string, number>;
}

/** A finding blocks unless it is waived. */
export function blockingFindings(tool: ToolReport): Finding[] {
  return tool.findings.filter((finding) => !finding.waiver);
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
    findings: result.findings,
    ...(result.details ? { details: result.details } : {}),
    ...(execution.scope ? { scope: execution.scope } : {}),
  };
}

/** What an agent should do next, given how the run ended. Shared by every renderer. */
export function nextStep(report: RunReport): string {
  const statuses = new Set(report.tools.map((tool) => tool.status));
  if (statuses.has('timeout') || statuses.has('budget_exhausted')) {
    return 'Validation ran out of time. Do not rerun it as is: split the change, give slow checks `paths`, or raise `validation.timeout`.';
  }
  if (report.verdict === 'passed') {
    const warnings = report.tools.filter((tool) => tool.status === 'tool_unavailable').map((tool) => tool.name);
    const note = warnings.length > 0 ? ` (${warnings.join(', ')} could not run here: see above)` : '';
    const scoped = report.tools.filter((tool) => tool.scope);
    if (scoped.length > 0) {
      const what = scoped.map((tool) => `${tool.name} (${tool.scope})`).join(', ');
      return `Passed on part of the change only: ${what}. This does not validate the change: run \`tollgate run\` before declaring it done.`;
    }
    return report.partial
      ? `The selected validators passed${note}. Run \`tollgate run\` without --only/--skip before declaring the change done.`
      : `All validators passed${note}. The change may be declared done.`;
  }
  if (statuses.has('rate_limited')) {
    return 'A validator was rate limited. Wait a few minutes, then run `tollgate run` again; the other results are kept.';
  }
  const hasFindings = report.tools.some((tool) => blockingFindings(tool).length > 0);
  if (hasFindings) {
    return 'Fix the findings above, then run `tollgate run` again. To accept a low-risk finding instead, `tollgate waive ID --reason "…"`.';
  }
  const broken = report.tools.filter((tool) => !toolPasses(tool)).map((tool) => tool.name);
  return `${broken.join(', ')} could not finish: read the summary above, fix the cause (config, input or environment), then run \`tollgate run\` again.`;
}
