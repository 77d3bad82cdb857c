import { formatDuration } from '../config/duration.js';
import { isPassingStatus, type ToolStatus } from '../result.js';
import { failureExcerpt } from './failure-excerpt.js';
import { blockingFindings, statusLabel, type ToolReport, toolPasses } from './run-report.js';

/** What an agent reads back from a validation call: one section per tool, and a footer with the next action. */
export interface ValidationResultsView {
  /** The MCP tool the agent called (`parallel_validation`, `code_review`), named in the footer. */
  callName: string;
  status: ToolStatus;
  /** Set when the call ended before running anything (no changes, trivial, budget, circuit breaker). */
  message?: string;
  tools: readonly ToolReport[];
  /** Lines of a finding's body kept (config `output.maxOutputLines`). */
  maxOutputLines: number;
}

/** Markdown for the agent. Pure. */
export function renderValidationResults(view: ValidationResultsView): string {
  const lines = ['## Validation Results', ''];
  if (view.message) lines.push(view.message);
  for (const tool of view.tools) {
    lines.push(`### ${tool.title} (\`${tool.name}\`): ${statusLabel(tool)} · ${formatDuration(tool.durationMs)}`);
    lines.push('', tool.summary);
    const blocking = blockingFindings(tool);
    if (tool.findings.length > 0) {
      const waived = tool.findings.length - blocking.length;
      lines.push('', `Findings: ${blocking.length} to address${waived > 0 ? `, ${waived} waived` : ''}`);
      for (const finding of tool.findings) {
        const where = finding.path ? ` \`${finding.path}${finding.line ? `:${finding.line}` : ''}\`` : '';
        const waiver = finding.waiver ? ` (waived: ${finding.waiver.reason})` : '';
        lines.push(`- **${finding.severity}**${where} ${finding.title} · id \`${finding.id}\`${waiver}`);
        if (finding.body && !finding.waiver) {
          lines.push(
            ...failureExcerpt(finding.body, view.maxOutputLines)
              .split('\n')
              .map((line) => `  > ${line}`),
          );
        }
      }
    }
    lines.push('');
  }
  lines.push('---', validationFooter(view), '');
  return lines.join('\n');
}

/** The next action, from how the call ended. */
export function validationFooter(view: Pick<ValidationResultsView, 'callName' | 'status' | 'tools'>): string {
  const statuses = new Set<ToolStatus>([view.status, ...view.tools.map((tool) => tool.status)]);
  if (statuses.has('timeout') || statuses.has('budget_exhausted')) {
    return `Validation ran out of time. Do not call \`${view.callName}\` again for this change: split the change, or raise \`validation.timeout\` and start a new session.`;
  }
  if (view.status === 'invalid_input') return `Fix the input named above and call \`${view.callName}\` again.`;
  if (statuses.has('rate_limited')) {
    return `A validator was rate limited. Wait a few minutes, then call \`${view.callName}\` again.`;
  }
  // Only a passing call may say "passed": an `incomplete` or `error` validator without findings has still not passed.
  const failing = view.tools.filter((tool) => !toolPasses(tool) || blockingFindings(tool).length > 0);
  if (failing.length > 0 || !isPassingStatus(view.status)) {
    return `Address the issues above, then call \`${view.callName}\` again after your changes. To accept a low-risk finding instead, run \`tollgate waive ID --reason "…"\`.`;
  }
  const scoped = view.tools.filter((tool) => tool.scope);
  if (scoped.length > 0) {
    const what = scoped.map((tool) => tool.scope).join('; ');
    return `Passed on part of the change only (${what}). This does not validate the change: before declaring it done, validate the whole change (call the validation tool without paths or packages).`;
  }
  return 'Validation passed. The change may be declared done.';
}
