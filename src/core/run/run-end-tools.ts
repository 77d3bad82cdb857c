import type { RunEndFinding, RunEndTool } from '../events/types.js';
import type { Redact } from '../pipeline/redact-result.js';
import type { ToolReport } from './run-report.js';

/**
 * The validators as the run's report shows them, for `run.end`: `tollgate log` replays these, not the calls' first
 * answers, which the tree check, waivers and pending policy may have changed since. Masked with `redact`: a summary
 * written after the calls (the files that changed during the run) was never masked before.
 */
export function runEndTools(tools: readonly ToolReport[], redact: Redact): RunEndTool[] {
  return tools.map((tool) => ({
    name: tool.name,
    status: tool.status,
    summary: redact(tool.summary),
    findings: tool.findings.map(
      (finding): RunEndFinding => ({
        id: finding.id,
        severity: finding.severity,
        title: redact(finding.title),
        ...(finding.path === undefined ? {} : { path: redact(finding.path) }),
        ...(finding.line === undefined ? {} : { line: finding.line }),
        ...(finding.waiver ? { waiver: { by: finding.waiver.by, reason: redact(finding.waiver.reason) } } : {}),
      }),
    ),
  }));
}
