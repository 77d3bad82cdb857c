import type { Finding } from '../finding.js';
import type { ToolExecution } from '../pipeline/execute-tool.js';
import type { EffectivePolicy } from '../policy/effective-policy.js';
import { applyWaivers, recordRun, type WaiverRecord, waiversInForce } from '../state/index.js';
import { type ToolReport, toolReport, type Verdict, verdictOf } from './run-report.js';

export interface PersistRunOptions {
  repoRoot: string;
  runId: string;
  fingerprint: string;
  configHash: string;
  /** HEAD's commit at the run: keys the verdict and the results of validators that read the commits. */
  head: string | null;
  /** Where the committed waivers are read (docs/policy.md); default: HEAD. */
  policy?: EffectivePolicy;
  executions: readonly ToolExecution[];
  /** Every enabled validator ran and the run reached its end: only such a run may satisfy the stop hook. */
  complete: boolean;
  /** Validators that must really run (`validation.required`, `--strict`). */
  required?: readonly string[];
}

export interface PersistedRun {
  tools: ToolReport[];
  verdict: Verdict;
  /** The stored verdict may satisfy the gate (every enabled validator, the whole change, run to its end). */
  complete: boolean;
}

/**
 * Applies waivers, then records each validator's result and the run's verdict in `.tollgate/state.json`: the
 * baseline of later `skipped_no_changes` answers and what the stop hook decides from.
 */
export async function persistRun(options: PersistRunOptions): Promise<PersistedRun> {
  const waivers = await waiversInForce(options.repoRoot, options.policy);
  const required = new Set(options.required ?? []);
  const tools = options.executions.map((execution) => {
    const report = toolReport(withWaivers(execution, waivers));
    return required.has(report.name) ? { ...report, required: true } : report;
  });
  const verdict = verdictOf(tools);
  const at = new Date().toISOString();
  // A call narrowed to some paths or packages examined less than the change: it never satisfies the gate.
  const complete = options.complete && options.executions.every((execution) => execution.scope === null);
  await recordRun(options.repoRoot, {
    results: tools.map((tool, index) => ({
      tool: tool.name,
      fingerprint: options.fingerprint,
      configHash: options.configHash,
      // The status before waivers: a waived failure must not become the baseline a later skip stands on, or
      // removing the waiver would leave a blocking finding behind a skip.
      status: options.executions[index]!.result.status,
      scoped: options.executions[index]!.scope !== null,
      runId: options.runId,
      at,
      head: options.head,
      findings: tool.findings.map(({ id, severity, title, path, line }) => ({ id, severity, title, path, line })),
    })),
    verdict: {
      runId: options.runId,
      fingerprint: options.fingerprint,
      configHash: options.configHash,
      tools: tools.map((tool) => tool.name),
      verdict,
      complete,
      head: options.head,
      at,
    },
  });
  return { tools, verdict, complete };
}

/** A failed tool whose every finding is waived passes: a waiver is an accepted risk, still shown in the report. */
function withWaivers(execution: ToolExecution, waivers: readonly WaiverRecord[]): ToolExecution {
  const findings: Finding[] = applyWaivers(execution.result.findings, waivers);
  const waived = findings.filter((finding) => finding.waiver).length;
  if (waived === 0) return execution;
  const allWaived = waived === findings.length;
  const status = execution.result.status === 'failed' && allWaived ? 'passed' : execution.result.status;
  const summary = `${execution.result.summary} (${waived} finding(s) waived)`;
  return { ...execution, result: { ...execution.result, status, summary, findings } };
}
