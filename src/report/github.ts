import type { Finding, Severity } from '../core/finding.js';
import { failureExcerpt } from '../core/run/failure-excerpt.js';
import {
  blockingFindings,
  configPlaceOf,
  openFindings,
  type RunReport,
  statusLabel,
  type ToolReport,
  toolPasses,
} from '../core/run/run-report.js';
import { messageCommitOf } from '../secrets/commit-message-place.js';

/**
 * `--format github`: GitHub Actions workflow commands, so a run in CI annotates the pull request without GitHub
 * Advanced Security (which SARIF upload needs on private repositories). Each blocking finding becomes an annotation
 * on its file and lines, `::error`, `::warning` or `::notice` by severity; a validator that failed without a finding
 * (timed out, errored, required but unavailable) becomes one on the config file. GitHub shows at most
 * ANNOTATIONS_PER_KIND annotations of each kind per step and drops the rest silently: past that, findings are printed
 * as plain log lines, and one closing notice says how many were not annotated.
 */
export const ANNOTATIONS_PER_KIND = 10;

type Kind = 'error' | 'warning' | 'notice';

export const KIND_OF: Record<Severity, Kind> = {
  critical: 'error',
  high: 'error',
  medium: 'warning',
  low: 'notice',
  info: 'notice',
};

/** A message's lines kept in an annotation (the failure lines and the tail); the log and the other formats have the rest. */
const MESSAGE_LINES = 20;

export interface Annotation {
  kind: Kind;
  file?: string;
  line?: number;
  endLine?: number;
  col?: number;
  title: string;
  message: string;
}

/** Workflow-command data: `%`, CR and LF are escaped, so a message cannot end the command or start another. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A workflow-command property also escapes `:` and `,`, which separate properties. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export function renderGithub(report: RunReport): string {
  return renderAnnotations(headline(report), [
    ...findingAnnotations(report),
    ...toolAnnotations(report),
    ...runAnnotations(report),
  ]);
}

/** A headline, then the annotations most severe first, capped per kind as GitHub caps them (see above). */
export function renderAnnotations(title: string, annotations: readonly Annotation[]): string {
  const shown = new Map<Kind, number>();
  const lines = [title];
  let held = 0;
  // Most severe first, so that a cap drops notices before errors.
  for (const annotation of [...annotations].sort(byKind)) {
    const count = shown.get(annotation.kind) ?? 0;
    // One notice slot stays free for the closing line when anything is held back.
    const room = annotation.kind === 'notice' ? ANNOTATIONS_PER_KIND - 1 : ANNOTATIONS_PER_KIND;
    if (count < room) {
      shown.set(annotation.kind, count + 1);
      lines.push(command(annotation));
    } else {
      held += 1;
      lines.push(logLine(annotation));
    }
  }
  if (held > 0) {
    lines.push(
      command({
        kind: 'notice',
        title: 'tollgate',
        message: `${held} more result(s) not annotated: GitHub shows ${ANNOTATIONS_PER_KIND} annotations of each kind per step. All are listed in this step's log; \`--format sarif\` or \`--format json\` has every one.`,
      }),
    );
  }
  return `${lines.join('\n')}\n`;
}

function headline(report: RunReport): string {
  const findings = report.tools.reduce((sum, tool) => sum + blockingFindings(tool).length, 0);
  return `tollgate: ${report.verdict === 'passed' ? 'passed' : 'FAILED'}: ${findings} blocking finding(s), ${report.changedFiles} changed file(s), run ${report.runId}`;
}

function findingAnnotations(report: RunReport): Annotation[] {
  return report.tools.flatMap((tool) =>
    // Every open finding is annotated (its kind from its severity); only the headline counts what blocks.
    openFindings(tool).map((finding) => ({
      kind: KIND_OF[finding.severity],
      ...place(finding, report),
      title: `${tool.name}: ${finding.title}`,
      message: messageOf(finding, report.maxOutputLines),
    })),
  );
}

/** Where the finding is; a finding without a file (a failed check) points at the config line that defines it. */
function place(finding: Finding, report: RunReport): Pick<Annotation, 'file' | 'line' | 'endLine' | 'col'> {
  if (!finding.path) return configPlaceOf(report, finding.ruleId);
  // A commit's message is no file of the pull request: the annotation stands alone, its text names the commit.
  if (messageCommitOf(finding.path)) return {};
  if (finding.line === undefined) return { file: finding.path };
  return {
    file: finding.path,
    line: finding.line,
    ...(finding.endLine !== undefined && finding.endLine >= finding.line ? { endLine: finding.endLine } : {}),
    ...(finding.column !== undefined ? { col: finding.column } : {}),
  };
}

function messageOf(finding: Finding, maxOutputLines: number): string {
  const body = finding.body?.trim();
  if (!body) return `${finding.title} (${finding.severity}, ${finding.id})`;
  return `${failureExcerpt(body, Math.min(MESSAGE_LINES, maxOutputLines))}\n(${finding.severity}, ${finding.id})`;
}

/** A validator that did not pass and has no finding of its own still fails the run: it gets an annotation too. */
function toolAnnotations(report: RunReport): Annotation[] {
  const { file } = configPlaceOf(report, undefined);
  return report.tools
    .filter((tool) => blockingFindings(tool).length === 0 && !quiet(tool))
    .map((tool) => ({
      kind: toolPasses(tool) ? 'warning' : 'error',
      file,
      title: `${tool.name}: ${statusLabel(tool)}`,
      message: tool.summary,
    }));
}

/** Passing and skipped validators need no annotation. */
function quiet(tool: ToolReport): boolean {
  return toolPasses(tool) && tool.status !== 'tool_unavailable';
}

function runAnnotations(report: RunReport): Annotation[] {
  const annotations: Annotation[] = [];
  if (report.notStored) {
    annotations.push({
      kind: 'error',
      title: 'tollgate: results not stored',
      message: `${report.notStored}; this run counts for nothing.`,
    });
  }
  if (report.partial) {
    annotations.push({
      kind: 'notice',
      title: 'tollgate: partial run',
      message: 'Only some validators ran (--only/--skip): this run does not stand in for a full one.',
    });
  }
  for (const skipped of report.skippedFiles) {
    annotations.push({
      kind: 'warning',
      file: skipped.path,
      title: 'tollgate: file not examined',
      message: `${skipped.path} was not examined: ${skipped.detail}.`,
    });
  }
  return annotations;
}

const KIND_ORDER: Record<Kind, number> = { error: 0, warning: 1, notice: 2 };

function byKind(a: Annotation, b: Annotation): number {
  return KIND_ORDER[a.kind] - KIND_ORDER[b.kind];
}

function command(annotation: Annotation): string {
  const properties = [
    annotation.file === undefined ? null : `file=${escapeProperty(annotation.file)}`,
    annotation.line === undefined ? null : `line=${annotation.line}`,
    annotation.endLine === undefined ? null : `endLine=${annotation.endLine}`,
    annotation.col === undefined ? null : `col=${annotation.col}`,
    `title=${escapeProperty(annotation.title)}`,
  ].filter((property) => property !== null);
  return `::${annotation.kind} ${properties.join(',')}::${escapeData(annotation.message)}`;
}

/** A held-back annotation as a log line; its text is escaped too, so it cannot be read as a command. */
function logLine(annotation: Annotation): string {
  const where = annotation.file ? `${annotation.file}${annotation.line ? `:${annotation.line}` : ''} ` : '';
  return `${annotation.kind}: ${where}${escapeData(annotation.title)}: ${escapeData(annotation.message.split('\n')[0] ?? '')}`;
}
