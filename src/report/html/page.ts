import type { RunSummary } from '../../core/events/replay.js';
import { type Finding, SEVERITIES, type Severity } from '../../core/finding.js';
import { failureExcerpt } from '../../core/run/failure-excerpt.js';
import { type CodeContext, type RunReport, statusLabel, toolPasses } from '../../core/run/run-report.js';

/**
 * What an HTML page shows, whatever it was built from (a run's report, or a run replayed from its event log): the
 * renderer (`render.ts`) knows only this.
 */
export interface HtmlPage {
  title: string;
  verdict: 'passed' | 'failed' | 'interrupted';
  /** Label and value pairs under the heading (run id, base, changed files, …). */
  facts: Array<[string, string]>;
  /** Things a reader must not miss (a partial run, files not examined, results not stored). */
  notes: string[];
  tools: HtmlTool[];
}

export interface HtmlTool {
  name: string;
  status: string;
  /** How the status reads ("TIMED OUT", "passed"). */
  label: string;
  passed: boolean;
  durationMs: number | null;
  /** Start, in ms after the run started; null when unknown. */
  startMs: number | null;
  summary: string;
  findings: HtmlFinding[];
}

export interface HtmlFinding {
  id: string;
  severity: Severity;
  title: string;
  body?: string;
  /** The lines of `body` that show the failure, then its tail (see failureExcerpt): shown open. */
  excerpt?: string;
  ruleId?: string;
  /** `path:line`, or the path alone. */
  location?: string;
  /** `by: reason` when a person or policy waived it. */
  waived?: string;
  /** Lines of code around it, masked; `mark` are the finding's own line numbers. */
  context?: { startLine: number; lines: string[]; mark: [number, number] };
}

export function pageOfReport(report: RunReport): HtmlPage {
  const started = Date.parse(report.startedAt);
  const notes = [
    ...(report.notStored
      ? [`The results could not be stored (${report.notStored}): this run counts for nothing.`]
      : []),
    ...(report.partial ? ['Only some validators ran (--only/--skip): this run does not stand in for a full one.'] : []),
    ...(report.off && report.off.length > 0 ? [`Switched off by config: ${report.off.join(', ')}.`] : []),
    ...report.skippedFiles.map((file) => `Not examined: ${file.path} (${file.detail}).`),
  ];
  return {
    title: `tollgate run ${report.runId}`,
    verdict: report.verdict,
    facts: [
      ['Run', report.runId],
      ['Started', report.startedAt],
      ['Duration', `${(report.durationMs / 1000).toFixed(1)} s`],
      ['Base', `${report.base.ref ?? '(none)'} ${report.base.commit?.slice(0, 12) ?? ''}`.trim()],
      ['Changed files', String(report.changedFiles)],
      ['tollgate', report.version],
    ],
    notes,
    tools: report.tools.map((tool) => ({
      name: tool.name,
      status: tool.status,
      label: statusLabel(tool),
      passed: toolPasses(tool),
      durationMs: tool.durationMs,
      startMs: tool.startedAt ? Math.max(0, Date.parse(tool.startedAt) - started) : null,
      summary: tool.summary,
      findings: bySeverity(
        tool.findings.map((finding) => ({
          id: finding.id,
          severity: finding.severity,
          title: finding.title,
          ...(finding.body ? { body: finding.body, excerpt: failureExcerpt(finding.body, report.maxOutputLines) } : {}),
          ...(finding.ruleId ? { ruleId: finding.ruleId } : {}),
          ...locationOf(finding),
          ...(finding.waiver ? { waived: `${finding.waiver.by}: ${finding.waiver.reason}` } : {}),
          ...contextOf(finding, report.codeContext?.[finding.id]),
        })),
      ),
    })),
  };
}

function contextOf(finding: Finding, context: CodeContext | undefined): Pick<HtmlFinding, 'context'> {
  if (!context || finding.line === undefined) return {};
  return { context: { ...context, mark: [finding.line, Math.max(finding.line, finding.endLine ?? finding.line)] } };
}

/** `path:line`, the path alone, or nothing for a finding without a file. */
function locationOf(finding: { path?: string; line?: number }): Pick<HtmlFinding, 'location'> {
  if (!finding.path) return {};
  return { location: finding.line ? `${finding.path}:${finding.line}` : finding.path };
}

/** Most severe first; a stable sort keeps the validator's own order within a severity. */
export function bySeverity<T extends { severity: Severity }>(findings: T[]): T[] {
  return [...findings].sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity));
}

/** A run replayed from its event log (`tollgate log --format html`): the timeline comes from the events' times. */
export function pageOfSummary(runId: string, summary: RunSummary): HtmlPage {
  const started = Date.parse(summary.start?.at ?? summary.firstAt ?? '') || 0;
  const orphaned = summary.tools.filter((call) => call.state === 'orphaned').map((call) => call.toolName);
  return {
    title: `tollgate run ${runId}`,
    verdict: summary.end?.verdict ?? 'interrupted',
    facts: [
      ['Run', runId],
      ['Command', summary.start?.command ?? '(unknown)'],
      ['Started', summary.start?.at ?? summary.firstAt ?? '(unknown)'],
      ['Duration', summary.end ? `${(summary.end.durationMs / 1000).toFixed(1)} s` : '(did not finish)'],
      ['Base', `${summary.start?.base.ref ?? '(none)'} ${summary.start?.base.commit?.slice(0, 12) ?? ''}`.trim()],
    ],
    notes: [
      ...(summary.end ? [] : ['The log stops before the run ended: it was killed, crashed, or is still running.']),
      ...(orphaned.length > 0 ? [`Started but never completed: ${orphaned.join(', ')}.`] : []),
      ...(summary.unknownEvents > 0 ? [`${summary.unknownEvents} event(s) of a newer tollgate were not read.`] : []),
    ],
    tools: summary.tools.map((call) => ({
      name: call.toolName,
      status: call.status ?? call.state,
      label: call.state === 'orphaned' ? 'NEVER COMPLETED' : (call.status ?? 'unknown'),
      passed: call.success === true,
      durationMs: call.durationMs,
      startMs: call.startedAt ? Math.max(0, Date.parse(call.startedAt) - started) : null,
      summary: call.summary ?? call.error?.message ?? '',
      findings: bySeverity(
        call.findings.map((finding) => ({
          id: finding.id ?? '',
          severity: isSeverity(finding.severity) ? finding.severity : 'info',
          title: finding.title,
          ...locationOf(finding),
          ...(finding.waiver ? { waived: `${finding.waiver.by}: ${finding.waiver.reason}` } : {}),
        })),
      ),
    })),
  };
}

function isSeverity(value: string | undefined): value is Severity {
  return (SEVERITIES as readonly string[]).includes(value ?? '');
}
