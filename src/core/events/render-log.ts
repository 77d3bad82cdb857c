import { formatDuration } from '../config/units.js';
import type { LoggedFinding, RunSummary, ToolCallSummary } from './replay.js';
import type { RunListing } from './run-history.js';

/**
 * `tollgate log` as text. Pure: prints only what the events hold (the pipeline redacted findings before they were
 * logged), never reads the files the findings point at.
 */
export function renderRunLog(runId: string, summary: RunSummary): string {
  const lines: string[] = [];
  lines.push(`run ${runId}: ${headline(summary)}`);
  const { start } = summary;
  if (start) {
    lines.push(`  command: ${start.command}`);
    const base = start.base.ref ?? '(empty repository)';
    const commit = start.base.commit ? `${start.base.commit.slice(0, 12)}, ` : '';
    lines.push(`  base: ${base} (${commit}${start.base.source}); fingerprint ${start.fingerprint.slice(0, 12)}`);
    lines.push(`  validators: ${start.tools.length > 0 ? start.tools.join(', ') : '(none)'}`);
  }
  lines.push('');

  if (start?.unchangedSince) {
    lines.push(
      `nothing had changed since run ${start.unchangedSince}: its report was repeated, no validator was called`,
    );
  } else if (summary.tools.length === 0) {
    lines.push('no validator was called');
  }
  const widths = {
    name: Math.max(0, ...summary.tools.map((tool) => tool.toolName.length)),
    status: Math.max(0, ...summary.tools.map((tool) => statusOf(tool).length)),
  };
  for (const tool of summary.tools) lines.push(...renderTool(tool, widths));

  const decisions = [
    ...summary.hooks.map(
      (hook) =>
        `  ${hook.hookType}${hook.toolCallId ? ` for ${toolNameOf(summary, hook.toolCallId)}` : ''}: ${hookOutcome(hook)}`,
    ),
    ...summary.permissions.map(
      (permission) =>
        `  ${permission.toolName} ${permission.kind}: ${permission.decision ?? 'never answered'}${permission.source ? ` (${permission.source})` : ''}${permission.reason ? `: ${permission.reason}` : ''}`,
    ),
  ];
  if (decisions.length > 0) lines.push('', 'hooks and permissions:', ...decisions);

  if (summary.waivers.length > 0) {
    lines.push('', 'waivers:');
    for (const waiver of summary.waivers) {
      lines.push(
        'removed' in waiver
          ? `  removed ${waiver.findingId} by ${waiver.by}`
          : `  ${waiver.findingId} by ${waiver.by}: ${waiver.reason}`,
      );
    }
  }
  const notes = [
    ...summary.problems.map((problem) => `  line ${problem.line}: ${problem.message}`),
    ...(summary.unknownEvents > 0
      ? [`  ${summary.unknownEvents} event(s) of a type this version does not know (kept in the file)`]
      : []),
  ];
  if (notes.length > 0) lines.push('', 'log:', ...notes);
  return `${lines.join('\n')}\n`;
}

function headline(summary: RunSummary): string {
  if (summary.end) return `${summary.end.verdict} in ${formatDuration(summary.end.durationMs)}${when(summary)}`;
  if (summary.abort) {
    return `interrupted by ${summary.abort.signal} after ${formatDuration(summary.abort.durationMs)}: the run was aborted and its checks stopped${when(summary)}`;
  }
  return `interrupted: the log ends before the run did (killed, crashed, or still running)${when(summary)}`;
}

function when(summary: RunSummary): string {
  const at = summary.start?.at ?? summary.firstAt;
  return at ? `, started ${at}` : '';
}

function statusOf(tool: ToolCallSummary): string {
  if (tool.state === 'orphaned') return '';
  // A call without a result names why it failed (`interrupted` when a signal stopped it).
  return tool.status ?? (tool.success ? 'completed' : (tool.error?.code ?? 'error'));
}

function renderTool(tool: ToolCallSummary, widths: { name: number; status: number }): string[] {
  const name = tool.toolName.padEnd(widths.name);
  if (tool.state === 'orphaned') {
    return [`  ${name}  started, never completed: the run was killed`];
  }
  const status = statusOf(tool).padEnd(widths.status);
  const duration = (tool.durationMs === null ? '' : formatDuration(tool.durationMs)).padStart(7);
  const count = tool.findings.length;
  const findings = count === 0 ? 'no findings' : `${count} finding${count === 1 ? '' : 's'}`;
  const lines = [`  ${name}  ${status} ${duration}  ${findings}`];
  if (tool.status !== 'passed' && tool.summary) lines.push(`      ${firstLine(tool.summary)}`);
  else if (!tool.status && tool.error) lines.push(`      ${firstLine(tool.error.message)}`);
  for (const finding of tool.findings) lines.push(`      ${renderFinding(finding)}`);
  return lines;
}

function renderFinding(finding: LoggedFinding): string {
  const where = finding.path ? `${finding.path}${finding.line === undefined ? '' : `:${finding.line}`}  ` : '';
  const severity = (finding.severity ?? '').padEnd(8);
  const id = finding.id ? `  [${finding.id}]` : '';
  const waived = finding.waiver ? ` (waived by ${finding.waiver.by}: ${finding.waiver.reason})` : '';
  return `${severity} ${where}${firstLine(finding.title)}${id}${waived}`;
}

function hookOutcome(hook: RunSummary['hooks'][number]): string {
  if (hook.state === 'orphaned') return 'started, never completed';
  if (hook.decision) return `${hook.decision}${hook.reason ? `: ${hook.reason}` : ''}`;
  return hook.success ? 'ok' : `failed${hook.reason ? `: ${hook.reason}` : ''}`;
}

function toolNameOf(summary: RunSummary, toolCallId: string): string {
  return summary.tools.find((tool) => tool.toolCallId === toolCallId)?.toolName ?? toolCallId;
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}

/** `tollgate log --list`: one line per run, newest first. */
export function renderRunList(runs: readonly RunListing[]): string {
  if (runs.length === 0) return 'no runs yet; `tollgate run` records one\n';
  const lines = runs.map((run) => {
    const outcome = run.verdict ?? (run.state === 'interrupted' ? 'interrupted' : 'unknown');
    const duration = run.durationMs === null ? '' : formatDuration(run.durationMs);
    return [
      run.runId,
      outcome.padEnd(11),
      (run.startedAt ?? '').padEnd(24),
      duration.padStart(7),
      run.tools.join(','),
    ].join('  ');
  });
  return `${lines.join('\n')}\n`;
}
