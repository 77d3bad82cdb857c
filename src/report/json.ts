import { failureExcerpt } from '../core/run/failure-excerpt.js';
import type { RunReport } from '../core/run/run-report.js';
import { nextStep } from './next-step.js';

/**
 * The machine-readable report: the run report as is, plus the next step an agent should take and, beside each
 * finding's body, its `excerpt` (the failure lines and the tail, as every other format shows it).
 */
export function renderJson(report: RunReport): string {
  const tools = report.tools.map((tool) => ({
    ...tool,
    findings: tool.findings.map((finding) =>
      finding.body ? { ...finding, excerpt: failureExcerpt(finding.body, report.maxOutputLines) } : finding,
    ),
  }));
  return `${JSON.stringify({ ...report, tools, next: nextStep(report) }, null, 2)}\n`;
}
