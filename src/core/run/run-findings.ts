import { join } from 'node:path';
import { z } from 'zod';
import { readEventLog } from '../events/reader.js';
import { EVENTS_FILE } from '../events/writer.js';
import { type Finding, SEVERITIES } from '../finding.js';
import { lazy } from '../lazy.js';
import { runDirFor } from '../state/tollgate-dir.js';
import type { ToolReport } from './run-report.js';

/** A finding as the event log holds it (redacted before it was written); read leniently, never trusted blindly. */
export const loggedFinding = lazy(() =>
  z.looseObject({
    id: z.string(),
    validator: z.string(),
    ruleId: z.string().optional(),
    severity: z.enum(SEVERITIES),
    title: z.string(),
    body: z.string().optional(),
    path: z.string().optional(),
    line: z.number().optional(),
    column: z.number().optional(),
    waiver: z.looseObject({ by: z.string(), reason: z.string() }).optional(),
  }),
);

const loggedResult = lazy(() =>
  z.looseObject({
    status: z.string(),
    summary: z.string().default(''),
    findings: z.array(z.unknown()).default([]),
  }),
);

/**
 * Each validator's result in the given runs, replayed from their event logs (the state file keeps no finding
 * bodies): what the stop hook names when it blocks. A run whose log is missing or damaged gives what it can.
 */
export async function toolReportsOfRuns(repoRoot: string, runIds: readonly string[]): Promise<ToolReport[]> {
  const reports: ToolReport[] = [];
  for (const runId of runIds) {
    const read = await readEventLog(join(runDirFor(repoRoot, runId), EVENTS_FILE)).catch(() => null);
    for (const entry of read?.events ?? []) {
      const { event } = entry;
      if (event.type !== 'tool.execution_complete') continue;
      const data = event.data as { toolName?: string; durationMs?: number; result?: unknown };
      const result = loggedResult().safeParse(data.result);
      if (!result.success || typeof data.toolName !== 'string') continue;
      const findings = result.data.findings.flatMap((raw) => {
        const parsed = loggedFinding().safeParse(raw);
        return parsed.success ? [{ sources: [parsed.data.validator], ...parsed.data } as Finding] : [];
      });
      reports.push({
        name: data.toolName,
        title: data.toolName,
        status: result.data.status as ToolReport['status'],
        summary: result.data.summary,
        durationMs: data.durationMs ?? 0,
        findings,
      });
    }
  }
  return reports;
}
