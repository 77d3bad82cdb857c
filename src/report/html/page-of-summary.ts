import type { RunSummary } from '../../core/events/replay.js';
import { SEVERITIES, type Severity } from '../../core/finding.js';
import { bySeverity, type HtmlPage, locationOf, waiverOf } from './page.js';

/**
 * A run replayed from its event log, for a run that stored no report (`log --format html` of an older run): the
 * timeline comes from the events' times; outputs and changed files are not in the log. `note` says so on the page.
 */
export function pageOfSummary(runId: string, summary: RunSummary, note?: string): HtmlPage {
  const started = Date.parse(summary.start?.at ?? summary.firstAt ?? '') || 0;
  const orphaned = summary.tools.filter((call) => call.state === 'orphaned').map((call) => call.toolName);
  const verdict = summary.end?.verdict ?? 'interrupted';
  const tools = summary.tools.map((call) => ({
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
        ...waiverOf(finding),
      })),
    ),
  }));
  return {
    title: `tollgate run ${runId}`,
    verdict,
    facts: [
      ['Run', runId],
      ['Command', summary.start?.command ?? '(unknown)'],
      ['Started', summary.start?.at ?? summary.firstAt ?? '(unknown)'],
      ['Duration', summary.end ? `${(summary.end.durationMs / 1000).toFixed(1)} s` : '(did not finish)'],
      ['Base', `${summary.start?.base.ref ?? '(none)'} ${summary.start?.base.commit?.slice(0, 12) ?? ''}`.trim()],
    ],
    notes: [
      ...(note ? [note] : []),
      ...(summary.end ? [] : ['The log stops before the run ended: it was killed, crashed, or is still running.']),
      ...(orphaned.length > 0 ? [`Started but never completed: ${orphaned.join(', ')}.`] : []),
      ...(summary.unknownEvents > 0 ? [`${summary.unknownEvents} event(s) of a newer tollgate were not read.`] : []),
    ],
    summary: {
      blocking: tools
        .filter((tool) => !tool.passed)
        .map((tool) => ({
          name: tool.name,
          label: tool.label,
          findings: tool.findings.filter((finding) => !finding.waived).length,
        })),
      next:
        verdict === 'passed'
          ? 'This run passed. Run `tollgate run` for a full report of the change as it is now.'
          : 'Fix what the validators below report, then run `tollgate run` again; it shows each failure with its output. To accept a low-risk finding instead, `tollgate waive ID --reason "…"`.',
      passed: tools.filter((tool) => tool.passed && tool.status === 'passed').map((tool) => tool.name),
      notRun: tools
        .filter((tool) => tool.passed && tool.status !== 'passed')
        .map((tool) => `${tool.name} (${tool.label})`),
    },
    tools,
  };
}

function isSeverity(value: string | undefined): value is Severity {
  return (SEVERITIES as readonly string[]).includes(value ?? '');
}
