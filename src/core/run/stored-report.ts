import { join } from 'node:path';
import { z } from 'zod';
import { lazy } from '../lazy.js';
import { loadRedactor } from '../pipeline/redact-result.js';
import { TOOL_STATUSES } from '../result.js';
import { readJsonFileResult, writeFileAtomic } from '../state/atomic-write.js';
import { tollgatePaths } from '../state/tollgate-dir.js';
import { boundReport, cutFileList, maskReport } from './bound-report.js';
import { withCodeContext } from './code-context.js';
import { loggedFinding } from './run-findings.js';
import type { RunReport } from './run-report.js';

/**
 * A run's report as the run saw it, kept in `.tollgate/runs/<runId>/report.json`: what `run --format html` and
 * `log <runId> --format html` both draw their page from, so the two pages are the same bytes. Masked and bounded
 * (`bound-report.ts`); runs stored before this file existed have only their event log, and `log` falls back to it.
 */
export const STORED_REPORT_FILE = 'report.json';
const FORMAT_VERSION = 1;

/** What `readStoredReport` checks; built on first use (a run only writes its report). */
const storedSchema = lazy(() => {
  // A finding as the event log holds it, with what only the stored report keeps.
  const findingSchema = loggedFinding().extend({
    endLine: z.number().optional(),
    sources: z.array(z.string()).default([]),
    waiver: z
      .looseObject({
        findingId: z.string(),
        reason: z.string(),
        by: z.string(),
        at: z.string(),
        how: z.string().optional(),
      })
      .optional(),
    imported: z.looseObject({}).optional(),
  });

  const toolSchema = z.looseObject({
    name: z.string(),
    title: z.string(),
    status: z.enum(TOOL_STATUSES),
    summary: z.string(),
    durationMs: z.number(),
    startedAt: z.string().optional(),
    findings: z.array(findingSchema),
    details: z.record(z.string(), z.unknown()).optional(),
    scope: z.string().optional(),
    required: z.boolean().optional(),
  });

  const reportSchema = z.looseObject({
    tool: z.literal('tollgate'),
    version: z.string(),
    runId: z.string(),
    startedAt: z.string(),
    durationMs: z.number(),
    verdict: z.enum(['passed', 'failed']),
    repoRoot: z.string(),
    base: z.looseObject({ ref: z.string().nullable(), commit: z.string().nullable(), source: z.string() }),
    fingerprint: z.string(),
    changedFiles: z.number(),
    files: z.array(z.looseObject({ path: z.string(), status: z.string() })).optional(),
    ignored: z.array(z.string()),
    skippedFiles: z.array(z.looseObject({ path: z.string(), reason: z.string(), detail: z.string() })),
    partial: z.boolean(),
    tools: z.array(toolSchema),
    maxOutputLines: z.number(),
    codeContext: z.record(z.string(), z.looseObject({ startLine: z.number(), lines: z.array(z.string()) })).optional(),
    left: z.array(z.string()).optional(),
  });

  return z.looseObject({ storedReport: z.literal(FORMAT_VERSION), report: reportSchema });
});

export type StoredReportRead =
  | { kind: 'ok'; report: RunReport }
  /** A run stored before reports were kept (or one whose report could not be written). */
  | { kind: 'missing' }
  | { kind: 'corrupt'; problem: string };

/**
 * Writes the run's report, with code around its findings, masked and bounded. Never fails the run: a report that
 * cannot be written leaves the event log, which `log` falls back to. Returns whether it was written.
 */
export async function storeRunReport(report: RunReport): Promise<boolean> {
  try {
    const stored = boundReport(
      withoutNamesWhenNothingRan(report) ??
        maskReport(await withCodeContext(cutFileList(report)), await loadRedactor()),
    );
    const path = join(tollgatePaths(report.repoRoot).runDir(report.runId), STORED_REPORT_FILE);
    await writeFileAtomic(path, `${JSON.stringify({ storedReport: FORMAT_VERSION, report: stored })}\n`, {
      label: `.tollgate/runs/${report.runId}/${STORED_REPORT_FILE}`,
    });
    return true;
  } catch {
    return false;
  }
}

/** The stored report of a run; `missing` for a run that has none (an older tollgate, a full disk). */
export async function readStoredReport(repoRoot: string, runId: string): Promise<StoredReportRead> {
  const path = join(tollgatePaths(repoRoot).runDir(runId), STORED_REPORT_FILE);
  const read = await readJsonFileResult(path, storedSchema());
  if (read.kind !== 'ok') return read;
  // The schema checked every field a renderer reads; the rest of the shape is what storeRunReport wrote.
  return { kind: 'ok', report: read.value.report as unknown as RunReport };
}

/**
 * No validator ran (each one off, or skipped for no changes): the report holds only tollgate's own words and the names
 * of the files, and masking those names would mean building the secret scanner, most of such a run's cost (the start-up of
 * the no-change run and of the whole-process change set). Its stored report keeps the counts and leaves the names out,
 * saying so. Null when a validator ran: then everything is masked.
 */
function withoutNamesWhenNothingRan(report: RunReport): RunReport | null {
  const ran = report.tools.some(
    (tool) => tool.status !== 'skipped_no_changes' || tool.findings.length > 0 || tool.details !== undefined,
  );
  if (ran) return null;
  const names = (report.files?.length ?? 0) + report.ignored.length + report.skippedFiles.length;
  if (names === 0) return report;
  return {
    ...report,
    ...(report.files ? { files: [] } : {}),
    ignored: [],
    skippedFiles: [],
    left: [...(report.left ?? []), `the names of ${names} changed, ignored or skipped file(s), as no validator ran`],
  };
}
