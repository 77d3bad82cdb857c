import { z } from 'zod';
import { type Finding, SEVERITIES, type Severity } from '../../core/finding.js';
import { failureExcerpt } from '../../core/run/failure-excerpt.js';
import {
  blockingFindings,
  type CodeContext,
  type RunReport,
  statusLabel,
  type ToolReport,
  toolPasses,
} from '../../core/run/run-report.js';
import { nextStep } from '../next-step.js';

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
  /** The top of the page: what blocks, what to do next, what passed. */
  summary: HtmlSummary;
  /** The change's files; absent when the run's record does not name them. */
  changedFiles?: { files: Array<{ path: string; status: string }>; total: number };
  /** Validators in the order they ran; the page shows the ones that failed first. */
  tools: HtmlTool[];
}

export interface HtmlSummary {
  /** Validators that fail the run, with how their status reads and their blocking findings. */
  blocking: Array<{ name: string; label: string; findings: number }>;
  /** The next step, with `code` in backticks. */
  next: string;
  /** Validators that passed, and the project checks that passed (`checks: lint`). */
  passed: string[];
  /** Validators that did not block but did not pass either (skipped, unavailable), with how their status reads. */
  notRun: string[];
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
  /** The command that waives it, for a finding that blocks. */
  waive?: string;
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
    ...(report.left && report.left.length > 0 ? [`Left out of the stored report: ${report.left.join('; ')}.`] : []),
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
    summary: {
      blocking: report.tools
        .filter((tool) => !toolPasses(tool))
        .map((tool) => ({ name: tool.name, label: statusLabel(tool), findings: blockingFindings(tool).length })),
      next: nextStep(report, 'below'),
      passed: report.tools.flatMap(passedNames),
      notRun: report.tools
        .filter((tool) => toolPasses(tool) && tool.status !== 'passed')
        .map((tool) => `${tool.name} (${statusLabel(tool)})`),
    },
    ...(report.files ? { changedFiles: { files: [...report.files], total: report.changedFiles } } : {}),
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
          ...waiverOf(finding),
          ...contextOf(finding, report.codeContext?.[finding.id]),
        })),
      ),
    })),
  };
}

/** The project checks a `checks` result lists in its details; other validators have none. */
const checkOutcomes = z.array(z.looseObject({ name: z.string(), state: z.string() }));

/** A validator that passed, by name, and every check that passed, even in a run of checks that failed. */
function passedNames(tool: ToolReport): string[] {
  const own = tool.status === 'passed' ? [tool.name] : [];
  const checks = checkOutcomes.safeParse(tool.details?.checks);
  const passedChecks = checks.success
    ? checks.data.filter((check) => check.state === 'passed').map((check) => `${tool.name}: ${check.name}`)
    : [];
  return [...own, ...passedChecks];
}

/** A waived finding says by whom and why; one that blocks carries the command that would waive it. */
export function waiverOf(finding: {
  id?: string;
  waiver?: { by: string; reason: string };
}): Pick<HtmlFinding, 'waived' | 'waive'> {
  if (finding.waiver) return { waived: `${finding.waiver.by}: ${finding.waiver.reason}` };
  return finding.id ? { waive: waiveCommand(finding.id) } : {};
}

/** `tollgate waive ID --reason "…"`, the id quoted for a shell unless it is plain (ids are hex digests). */
export function waiveCommand(id: string): string {
  const quoted = /^[A-Za-z0-9._-]+$/.test(id) ? id : `'${id.replace(/'/g, `'\\''`)}'`;
  return `tollgate waive ${quoted} --reason "…"`;
}

function contextOf(finding: Finding, context: CodeContext | undefined): Pick<HtmlFinding, 'context'> {
  if (!context || finding.line === undefined) return {};
  return { context: { ...context, mark: [finding.line, Math.max(finding.line, finding.endLine ?? finding.line)] } };
}

/** `path:line`, the path alone, or nothing for a finding without a file. */
export function locationOf(finding: { path?: string; line?: number }): Pick<HtmlFinding, 'location'> {
  if (!finding.path) return {};
  return { location: finding.line ? `${finding.path}:${finding.line}` : finding.path };
}

/** Most severe first; a stable sort keeps the validator's own order within a severity. */
export function bySeverity<T extends { severity: Severity }>(findings: T[]): T[] {
  return [...findings].sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity));
}
