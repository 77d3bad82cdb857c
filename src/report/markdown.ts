import { pinnedBaseLine } from '../core/change-set/describe-base.js';
import { formatDuration } from '../core/config/units.js';
import type { Finding } from '../core/finding.js';
import type { Reader } from '../core/reader.js';
import { failureExcerpt } from '../core/run/failure-excerpt.js';
import { findingCounts, type RunReport, statusLabel, type ToolReport } from '../core/run/run-report.js';
import { nextStep, pendingPolicyPaths } from './next-step.js';

/**
 * Renders a run as Markdown: verdict header, one section per tool, and a footer that says what to do next, in words
 * for its reader (a person at a terminal is told the commands only a person may run; see core/reader.ts).
 */
export function renderMarkdown(report: RunReport, reader: Reader = 'agent'): string {
  const lines: string[] = [];
  const verdict = report.verdict === 'passed' ? 'PASSED' : 'FAILED';
  lines.push(`# tollgate: ${verdict}`, '');
  const base = report.base.ref
    ? `\`${report.base.ref}\`${report.base.commit ? ` (${report.base.commit.slice(0, 10)})` : ''}`
    : report.base.source === 'pinned'
      ? 'no base (nothing in this history was validated: all of it is the change)'
      : 'an empty repository';
  lines.push(
    `${report.changedFiles} changed file(s) against ${base} · ${formatDuration(report.durationMs)} · run \`${report.runId}\`${report.partial ? ' · partial run (--only/--skip)' : ''}`,
  );
  const pinned = pinnedBaseLine(report.base);
  if (pinned) lines.push('', pinned);
  if (report.off && report.off.length > 0) {
    lines.push('', `Off (config \`validation.<name>.enabled\` or \`TOLLGATE_USE_<NAME>=0\`): ${report.off.join(', ')}`);
  }
  if (report.ignored.length > 0) {
    lines.push('', `Ignored by \`ignore\` patterns (${report.ignored.length}): ${listPaths(report.ignored)}`);
  }
  if (report.skippedFiles.length > 0) {
    lines.push('', `Not scanned (${report.skippedFiles.length}):`);
    for (const skipped of report.skippedFiles.slice(0, 20)) lines.push(`- ${code(skipped.path)}: ${skipped.detail}`);
    if (report.skippedFiles.length > 20) lines.push(`- … and ${report.skippedFiles.length - 20} more`);
  }
  for (const tool of report.tools) {
    lines.push('', ...renderTool(tool, report.maxOutputLines));
    if (reader === 'person' && pendingPolicyPaths({ tools: [tool] }).length > 0) lines.push('', PERSON_POLICY_LINE);
  }
  lines.push('', '---', `**Next:** ${nextStep(report, 'above', reader)}`, '');
  return lines.join('\n');
}

/** Under the policy section, for a person only: the command that reviews and applies a pending edit. */
const PERSON_POLICY_LINE =
  'A policy edit applies once you review it: run `tollgate policy accept` in your terminal (it shows each edit and asks you to type "accept").';

function renderTool(tool: ToolReport, maxOutputLines: number): string[] {
  const lines = [
    `## ${tool.title} (\`${tool.name}\`): ${statusLabel(tool)} · ${formatDuration(tool.durationMs)}`,
    '',
    tool.summary,
  ];
  if (tool.findings.length > 0) {
    lines.push('', `Findings: ${findingCounts(tool)}`, '');
    for (const finding of tool.findings) lines.push(...renderFinding(finding, maxOutputLines));
  }
  return lines;
}

function renderFinding(finding: Finding, maxOutputLines: number): string[] {
  const position = finding.line ? `:${finding.line}${finding.column ? `:${finding.column}` : ''}` : '';
  const where = finding.path ? ` ${code(`${finding.path}${position}`)}` : '';
  const how = finding.waiver?.how ? ` (${finding.waiver.how})` : '';
  const waived = finding.waiver ? ` — waived by ${finding.waiver.by}${how}: ${finding.waiver.reason}` : '';
  const sources = finding.sources.length > 1 ? ` (found by ${finding.sources.join(', ')})` : '';
  const lines = [`- **${finding.severity}**${where} ${finding.title}${sources} · id \`${finding.id}\`${waived}`];
  if (finding.body) {
    const body = failureExcerpt(finding.body, maxOutputLines);
    const fence = body.includes('```') ? '~~~~' : '```';
    lines.push(`  ${fence}`, ...body.split('\n').map((line) => `  ${line}`), `  ${fence}`);
  }
  return lines;
}

function listPaths(paths: readonly string[]): string {
  const shown = paths.slice(0, 10).map(code);
  return paths.length > 10 ? `${shown.join(', ')} and ${paths.length - 10} more` : shown.join(', ');
}

/**
 * A file name as inline code on one line. Git allows any byte but NUL in a name: a newline or a backtick in it
 * must not end the list item or the code span, so control characters are shown escaped (`a\nb`) and a name with
 * backticks gets a longer fence.
 */
function code(text: string): string {
  const oneLine = text.replace(/[\u0000-\u001f\u007f]/g, (char) => JSON.stringify(char).slice(1, -1));
  const longest = Math.max(0, ...(oneLine.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return longest === 0 ? `${fence}${oneLine}${fence}` : `${fence} ${oneLine} ${fence}`;
}
