import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { isoTime } from '../iso-time.js';
import { FAILURE_STATUSES } from '../result.js';
import { openFindings, type ToolReport } from '../run/run-report.js';
import {
  type CallTelemetry,
  type InterruptedRunTelemetry,
  type SkipReason,
  skipReasonOf,
  TELEMETRY_FILE,
  type TelemetryRecord,
  type ToolTelemetry,
} from './records.js';
import { toolFacts } from './tool-facts.js';

export interface TrivialDeclaration {
  isTrivial: boolean;
  reason?: string;
}

export interface RunTelemetryInput {
  runId: string;
  source: CallTelemetry['source'];
  tools: readonly ToolReport[];
  /** The agent's declarations by tool name. */
  declarations?: ReadonlyMap<string, TrivialDeclaration>;
  /** The call as a whole (MCP calls); `tollgate run` records only its tools. */
  call?: { name: string; status: string; durationMs: number; skipReason: SkipReason | null };
}

/** Per-tool records of a run, from its tool reports. Pure. */
export function toolTelemetry(input: RunTelemetryInput, at = isoTime()): TelemetryRecord[] {
  const records: TelemetryRecord[] = input.tools.map((tool): ToolTelemetry => {
    const declared = input.declarations?.get(tool.name)?.isTrivial ?? null;
    const alertCount = openFindings(tool).length;
    const skipReason = skipReasonOf(tool.status);
    const ran = skipReason === null && tool.status !== 'invalid_input';
    return {
      type: 'validation.tool',
      at,
      runId: input.runId,
      source: input.source,
      tool: tool.name,
      status: tool.status,
      success: !FAILURE_STATUSES.has(tool.status),
      durationMs: tool.durationMs,
      timedOut: tool.status === 'timeout',
      alertCount,
      potentialSavingsMs: declared === true && ran && alertCount === 0 ? tool.durationMs : 0,
      trivialDeclared: declared,
      disagreement: declared === true && alertCount > 0,
      skipReason,
      ...toolFacts(tool),
    };
  });
  if (input.call) {
    records.push({
      type: 'validation.call',
      at,
      runId: input.runId,
      source: input.source,
      call: input.call.name,
      status: input.call.status,
      durationMs: input.call.durationMs,
      tools: input.tools.map((tool) => tool.name),
      skipReason: input.call.skipReason,
    });
  }
  return records;
}

/**
 * Appends the run's records to `<runDir>/telemetry.jsonl`. Telemetry never fails a run: a write error is dropped.
 */
export async function recordRunTelemetry(runDir: string, input: RunTelemetryInput): Promise<void> {
  appendRecords(runDir, toolTelemetry(input));
}

/**
 * Records a run a signal ended. Synchronous, as the abort handler that calls it must be: the process exits right after.
 */
export function recordInterruptedRun(runDir: string, record: Omit<InterruptedRunTelemetry, 'type' | 'at'>): void {
  appendRecords(runDir, [{ type: 'validation.interrupted', at: new Date().toISOString(), ...record }]);
}

function appendRecords(runDir: string, records: readonly TelemetryRecord[]): void {
  const lines = records.map((record) => `${JSON.stringify(record)}\n`);
  try {
    // Synchronous: a few hundred bytes cost less than their trips through the thread pool.
    mkdirSync(runDir, { recursive: true, mode: 0o700 });
    appendFileSync(join(runDir, TELEMETRY_FILE), lines.join(''), { mode: 0o600 });
  } catch {
    // Local statistics only; losing them must not turn a finished run into an error.
  }
}
