import type { Finding } from '../finding.js';
import type { Redact } from '../pipeline/redact-result.js';
import { failureExcerpt } from './failure-excerpt.js';
import type { RunReport, ToolReport } from './run-report.js';

/** Limits of a stored report (`stored-report.ts`): a run folder stays small whatever the run found. */
export const STORED_LIMITS = {
  /** A finding's body longer than this keeps its failure lines and tail (`failureExcerpt`) only. */
  bodyChars: 64 * 1024,
  /** Lines kept of such a body. */
  bodyLines: 200,
  /** Changed files named; the count stays whole. */
  files: 2_000,
  /** The whole report, as JSON. */
  bytes: 4 * 1024 * 1024,
} as const;

/**
 * Masks every text of the report that came from outside (tool summaries, finding titles and bodies, file names, code
 * context). The pipeline masked results already; this is the last pass before anything is written to disk.
 */
export function maskReport(report: RunReport, redact: Redact): RunReport {
  const codeContext = report.codeContext
    ? Object.fromEntries(
        Object.entries(report.codeContext).map(([id, context]) => [
          id,
          { ...context, lines: context.lines.map(redact) },
        ]),
      )
    : undefined;
  return {
    ...report,
    ...(report.files ? { files: report.files.map((file) => ({ ...file, path: redact(file.path) })) } : {}),
    ignored: report.ignored.map(redact),
    skippedFiles: report.skippedFiles.map((file) => ({
      ...file,
      path: redact(file.path),
      detail: redact(file.detail),
    })),
    tools: report.tools.map((tool) => ({
      ...tool,
      summary: redact(tool.summary),
      findings: tool.findings.map((finding) => maskFinding(finding, redact)),
    })),
    ...(codeContext ? { codeContext } : {}),
  };
}

function maskFinding(finding: Finding, redact: Redact): Finding {
  return {
    ...finding,
    title: redact(finding.title),
    ...(finding.body === undefined ? {} : { body: redact(finding.body) }),
    ...(finding.path === undefined ? {} : { path: redact(finding.path) }),
  };
}

/**
 * The report cut to STORED_LIMITS, saying in `left` what it left out: long bodies keep their failure lines and tail,
 * the file list its first names; when the whole is still too large, code context goes, then bodies shrink to what
 * the reports show, then the validators' details, then the last findings. Pure.
 */
export function boundReport(report: RunReport): RunReport {
  const left: string[] = [...(report.left ?? [])];
  let bounded: RunReport = { ...report, tools: report.tools.map((tool) => cutBodies(tool, STORED_LIMITS.bodyLines)) };
  const cutBodyCount = countChanged(report.tools, bounded.tools);
  if (cutBodyCount > 0) left.push(`${cutBodyCount} long output(s) keep their failure lines and last lines only`);
  if (report.files && report.files.length > STORED_LIMITS.files) {
    bounded = { ...bounded, files: report.files.slice(0, STORED_LIMITS.files) };
    left.push(fileNamesLeft(report.files.length));
  }
  // Measured once, and again only after a cut: each measure is the whole report as JSON (2,000 file names on a first
  // run of a large change), and a report within the limit, the usual one, passes every test below unchanged.
  let size = sizeOf(bounded);
  if (size > STORED_LIMITS.bytes && bounded.codeContext) {
    const { codeContext: _dropped, ...rest } = bounded;
    bounded = rest;
    left.push('the code around findings');
    size = sizeOf(bounded);
  }
  if (size > STORED_LIMITS.bytes) {
    bounded = { ...bounded, tools: bounded.tools.map((tool) => cutBodies(tool, report.maxOutputLines, 0)) };
    left.push('every output beyond its excerpt');
    size = sizeOf(bounded);
  }
  if (size > STORED_LIMITS.bytes) {
    bounded = { ...bounded, tools: bounded.tools.map(withoutDetails) };
    left.push("the validators' details");
    size = sizeOf(bounded);
  }
  if (size > STORED_LIMITS.bytes) {
    const { tools, dropped } = dropLastFindings(bounded.tools, STORED_LIMITS.bytes - sizeOf({ ...bounded, tools: [] }));
    bounded = { ...bounded, tools };
    left.push(`${dropped} finding(s) at the end of the list (the JSON report has them all)`);
  }
  return left.length > 0 ? { ...bounded, left } : bounded;
}

/**
 * The report with its file list cut to STORED_LIMITS.files, as `boundReport` cuts it: done before masking, so that
 * the names the stored report leaves out are never masked (each name is a scan of its own).
 */
export function cutFileList(report: RunReport): RunReport {
  if (!report.files || report.files.length <= STORED_LIMITS.files) return report;
  return {
    ...report,
    files: report.files.slice(0, STORED_LIMITS.files),
    left: [...(report.left ?? []), fileNamesLeft(report.files.length)],
  };
}

function fileNamesLeft(count: number): string {
  return `the names of ${count - STORED_LIMITS.files} more changed file(s)`;
}

function cutBodies(tool: ToolReport, lines: number, limit: number = STORED_LIMITS.bodyChars): ToolReport {
  const findings = tool.findings.map((finding) =>
    finding.body !== undefined && finding.body.length > limit
      ? { ...finding, body: failureExcerpt(finding.body, lines) }
      : finding,
  );
  return { ...tool, findings };
}

/** A tool without its details, but for the checks' names and states, which the page lists. */
function withoutDetails(tool: ToolReport): ToolReport {
  const { details, ...rest } = tool;
  const checks = Array.isArray(details?.checks) ? (details.checks as Array<{ name?: unknown; state?: unknown }>) : null;
  return checks ? { ...rest, details: { checks: checks.map(({ name, state }) => ({ name, state })) } } : rest;
}

function countChanged(before: readonly ToolReport[], after: readonly ToolReport[]): number {
  return before.reduce(
    (sum, tool, index) => sum + tool.findings.filter((finding, at) => finding !== after[index]!.findings[at]).length,
    0,
  );
}

/** Keeps findings in report order while they fit in `room` bytes; a tool keeps its place, if not its findings. */
function dropLastFindings(tools: readonly ToolReport[], room: number): { tools: ToolReport[]; dropped: number } {
  let used = 0;
  let dropped = 0;
  const kept = tools.map((tool) => {
    const findings = tool.findings.filter((finding) => {
      const size = JSON.stringify(finding).length + 1;
      if (used + size > room) {
        dropped += 1;
        return false;
      }
      used += size;
      return true;
    });
    return { ...tool, findings };
  });
  return { tools: kept, dropped };
}

function sizeOf(report: RunReport): number {
  return JSON.stringify(report).length;
}
