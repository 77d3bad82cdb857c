import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatDuration } from '../config/units.js';
import { isSafeRunId, tollgatePaths } from '../state/tollgate-dir.js';
import { compareText } from '../text-order.js';
import { telemetryRecordSchema } from './record-schemas.js';
import { type ReviewerTelemetry, type SkipReason, TELEMETRY_FILE, type TelemetryRecord } from './records.js';

export interface ToolStats {
  tool: string;
  calls: number;
  /** Calls that ran the tool (not skipped). */
  ran: number;
  /** Ran to the end, with or without findings (the tool did its job); `passed` + `failed` of these. */
  successes: number;
  /** Ran and found nothing blocking. */
  passed: number;
  /** Ran and found something (failed checks, findings): a job done, not a success of the change. */
  failed: number;
  timeouts: number;
  /** Calls refused before they ran because their input was invalid: neither a skip nor a run. */
  invalidInput: number;
  /** Calls a signal stopped (Ctrl-C, a kill) before they completed. */
  interrupted: number;
  alerts: number;
  medianMs: number;
  p95Ms: number;
  trivialDeclared: number;
  /** Declared trivial, yet findings were found. */
  disagreements: number;
  potentialSavingsMs: number;
  skips: Partial<Record<SkipReason, number>>;
  /** code_review: each CLI, version and model that reviewed, with how many calls it reviewed in. */
  reviewers: Array<ReviewerTelemetry & { calls: number }>;
  /** static_analysis: each CodeQL version that ran, in how many calls, and in how many on an overlay database. */
  codeql: Array<{ version: string | null; calls: number; overlay: number }>;
}

export interface TelemetryStats {
  runs: number;
  /** Whole calls (MCP) by how they ended early; `ran` when they ran validators. */
  calls: Record<string, number>;
  /** Runs a signal ended before they finished, by signal. */
  interrupted: Record<string, number>;
  tools: ToolStats[];
  /** Lines that could not be read (a newer tollgate, a torn write). */
  unreadableLines: number;
}

export interface ReadTelemetryOptions {
  /** The most recent runs to read. */
  limit: number;
}

/** Telemetry of the most recent runs, oldest first. */
export async function readTelemetry(
  repoRoot: string,
  options: ReadTelemetryOptions,
): Promise<{ runs: number; records: TelemetryRecord[]; unreadableLines: number }> {
  const paths = tollgatePaths(repoRoot);
  let ids: string[] = [];
  try {
    ids = (await readdir(paths.runsDir)).filter(isSafeRunId).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const records: TelemetryRecord[] = [];
  let runs = 0;
  let unreadableLines = 0;
  const readFileRecords = async (path: string): Promise<boolean> => {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch {
      return false;
    }
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      const record = telemetryRecordSchema().safeParse(safeJson(line));
      if (record.success) records.push(record.data);
      else unreadableLines++;
    }
    return true;
  };
  for (const id of ids.slice(-options.limit)) {
    if (await readFileRecords(join(paths.runsDir, id, TELEMETRY_FILE))) runs++;
  }
  // Calls that ended before starting a run (budget, circuit breaker) are recorded beside the runs.
  await readFileRecords(join(paths.root, TELEMETRY_FILE));
  records.sort((a, b) => compareText(a.at, b.at));
  return { runs, records, unreadableLines };
}

function safeJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
}

/** Aggregates records per tool. Pure. */
export function summarizeTelemetry(
  records: readonly TelemetryRecord[],
  runs: number,
  unreadableLines = 0,
): TelemetryStats {
  const byTool = new Map<string, { stats: ToolStats; durations: number[] }>();
  const calls: Record<string, number> = {};
  const interrupted: Record<string, number> = {};
  const entryFor = (tool: string) => {
    const entry = byTool.get(tool) ?? { stats: emptyToolStats(tool), durations: [] };
    byTool.set(tool, entry);
    return entry;
  };
  for (const record of records) {
    if (record.type === 'validation.call') {
      const key = record.skipReason ?? 'ran';
      calls[key] = (calls[key] ?? 0) + 1;
      continue;
    }
    if (record.type === 'validation.interrupted') {
      interrupted[record.signal] = (interrupted[record.signal] ?? 0) + 1;
      for (const tool of record.tools) {
        const { stats } = entryFor(tool);
        stats.calls++;
        stats.interrupted++;
      }
      continue;
    }
    const entry = entryFor(record.tool);
    const { stats } = entry;
    stats.calls++;
    // Older versions recorded a tool's invalid input as a skip.
    if (record.status === 'invalid_input' || record.skipReason === 'invalid_input') {
      stats.invalidInput++;
      continue;
    }
    if (record.skipReason) stats.skips[record.skipReason] = (stats.skips[record.skipReason] ?? 0) + 1;
    else {
      stats.ran++;
      entry.durations.push(record.durationMs);
    }
    // A skipped call (`skipped_no_changes` reuses an earlier pass) is recorded as a success but never ran: counting it
    // among the successes would make "could not finish" (ran - successes) negative.
    if (!record.skipReason) {
      if (record.success) stats.successes++;
      if (record.status === 'passed') stats.passed++;
      if (record.status === 'failed') stats.failed++;
    }
    if (record.timedOut) stats.timeouts++;
    stats.alerts += record.alertCount;
    if (record.trivialDeclared) stats.trivialDeclared++;
    if (record.disagreement) stats.disagreements++;
    stats.potentialSavingsMs += record.potentialSavingsMs;
    for (const reviewer of record.reviewers ?? []) {
      const same = stats.reviewers.find(
        (seen) => seen.cli === reviewer.cli && seen.cliVersion === reviewer.cliVersion && seen.model === reviewer.model,
      );
      if (same) same.calls++;
      else stats.reviewers.push({ ...reviewer, calls: 1 });
    }
    if (record.codeql) {
      const { version, overlay } = record.codeql;
      const same = stats.codeql.find((seen) => seen.version === version);
      const entry = same ?? { version, calls: 0, overlay: 0 };
      entry.calls++;
      if (overlay) entry.overlay++;
      if (!same) stats.codeql.push(entry);
    }
  }
  const tools = [...byTool.values()]
    .map(({ stats, durations }) => {
      const sorted = durations.sort((a, b) => a - b);
      return { ...stats, medianMs: percentile(sorted, 0.5), p95Ms: percentile(sorted, 0.95) };
    })
    .sort((a, b) => compareText(a.tool, b.tool));
  return { runs, calls, interrupted, tools, unreadableLines };
}

function emptyToolStats(tool: string): ToolStats {
  return {
    tool,
    calls: 0,
    ran: 0,
    successes: 0,
    passed: 0,
    failed: 0,
    timeouts: 0,
    invalidInput: 0,
    interrupted: 0,
    alerts: 0,
    medianMs: 0,
    p95Ms: 0,
    trivialDeclared: 0,
    disagreements: 0,
    potentialSavingsMs: 0,
    skips: {},
    reviewers: [],
    codeql: [],
  };
}

function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}

/** `tollgate stats` as text. */
export function renderStats(stats: TelemetryStats): string {
  if (stats.runs === 0)
    return 'No telemetry yet: run `tollgate run` or call a validation tool through `tollgate mcp`.\n';
  const lines = [`Validation telemetry over the last ${stats.runs} run(s) (local only, never sent anywhere):`, ''];
  for (const tool of stats.tools) {
    const skips = Object.entries(tool.skips)
      .map(([reason, count]) => `${reason} ${count}`)
      .join(', ');
    lines.push(
      `${tool.tool}: ${tool.calls} call(s), ran ${tool.ran}: passed ${tool.passed}, failed ${tool.failed}, could not finish ${tool.ran - tool.successes} (timed out ${tool.timeouts})`,
      `  duration median ${formatDuration(tool.medianMs)}, p95 ${formatDuration(tool.p95Ms)}; ${tool.alerts} finding(s)`,
    );
    // Only a tool that was declared trivial at least once has anything to say about it.
    if (tool.trivialDeclared > 0) {
      lines.push(
        `  declared trivial ${tool.trivialDeclared} time(s), ${tool.disagreements} of them with findings; potential savings ${formatDuration(tool.potentialSavingsMs)}`,
      );
    }
    if (tool.invalidInput > 0) lines.push(`  invalid input ${tool.invalidInput}`);
    if (tool.interrupted > 0) lines.push(`  interrupted ${tool.interrupted}`);
    if (skips) lines.push(`  skipped: ${skips}`);
    if (tool.reviewers.length > 0) {
      const reviewers = tool.reviewers.map(
        (reviewer) =>
          `${reviewer.cli} ${reviewer.cliVersion ?? '(version unknown)'} with ${reviewer.model ?? 'its default model'} ${reviewer.calls} time(s)`,
      );
      lines.push(`  reviewers: ${reviewers.join(', ')}`);
    }
    for (const codeql of tool.codeql) {
      lines.push(
        `  codeql ${codeql.version ?? '(version unknown)'}: ${codeql.calls} call(s), ${codeql.overlay} on an overlay database`,
      );
    }
  }
  const interrupted = Object.entries(stats.interrupted);
  if (interrupted.length > 0) {
    const total = interrupted.reduce((sum, [, count]) => sum + count, 0);
    const bySignal = interrupted.map(([signal, count]) => `${signal} ${count}`).join(', ');
    lines.push('', `Interrupted runs: ${total} (${bySignal})`);
  }
  const calls = Object.entries(stats.calls);
  if (calls.length > 0) {
    lines.push('', `MCP calls: ${calls.map(([reason, count]) => `${reason} ${count}`).join(', ')}`);
  }
  if (stats.unreadableLines > 0) lines.push('', `${stats.unreadableLines} unreadable line(s) ignored.`);
  return `${lines.join('\n')}\n`;
}
