import { isUnchanged, type RepoChangeSet } from '../change-set/types.js';
import { isToolEnabled, type TollgateConfig } from '../config/schema.js';
import type { AnyToolDefinition } from '../pipeline/tool.js';
import { POLICY_RESULT_NAME } from '../result.js';
import { findVerdict, type RunVerdictRecord, readState } from '../state/results-store.js';
import { changeSetForRun } from './change-set-for-run.js';

/** Whether the current tree has passed validation, read from persisted state (nothing is run). */
export interface GateStatus {
  fingerprint: string;
  changedFiles: number;
  /** The validators a complete run must include. */
  enabledTools: string[];
  /** The latest complete run of this exact change under this config, or null. */
  verdict: RunVerdictRecord | null;
  /**
   * - `validated`: that run passed, or nothing changed;
   * - `failed`: that run failed;
   * - `stale`: validation ran before, but not on this change (or under another config);
   * - `never`: no validation has run in this repository.
   */
  state: 'validated' | 'failed' | 'stale' | 'never';
  /** Findings of the enabled validators' last runs over the current change set (its fingerprint and config). */
  unresolvedFindings: number;
  /** Why a `stale` tree is stale: other files, another config (or its TOLLGATE_* environment), or fewer validators. */
  staleBecause?: 'files' | 'config' | 'validators';
  /** The runs whose findings are about the current change set (the failed run first): where the findings are. */
  findingRuns: string[];
  /** The latest run recorded, whatever it examined: a run of another change set does not count for this one. */
  latest: RunVerdictRecord | null;
  /** The enabled validators whose last run, alone or with others, examined this change under this config: its status. */
  ranOnChange: Record<string, string>;
  /**
   * The policy files whose edit the failed run was not judged by (pending a person's acceptance). The policy result
   * is added after the validators ran, so their event logs do not hold it: read from the state file.
   */
  pendingPolicyEdits: string[];
}

export interface GateStatusOptions {
  repoRoot: string;
  config: TollgateConfig;
  configHash: string;
  tools: readonly AnyToolDefinition[];
  /** An already built change set (the MCP server's); default: build one. */
  changeSet?: RepoChangeSet;
}

export async function readGateStatus(options: GateStatusOptions): Promise<GateStatus> {
  const changeSet = options.changeSet ?? (await changeSetForRun(options.repoRoot, options.config));
  const enabledTools = options.tools.filter((tool) => isToolEnabled(options.config, tool)).map((tool) => tool.name);
  const state = await readState(options.repoRoot);
  const verdict = findVerdict(state, changeSet.fingerprint, {
    configHash: options.configHash,
    tools: enabledTools,
    head: changeSet.head,
  });
  // Only findings of runs over this very change count: a validator's last run on another tree says nothing of it.
  const unresolvedFindings = enabledTools.reduce((sum, name) => {
    const entry = state.tools[name];
    const current =
      entry?.lastRun?.fingerprint === changeSet.fingerprint && entry.lastRun.configHash === options.configHash;
    return sum + (current ? (entry.lastFindings?.findings.length ?? 0) : 0);
  }, 0);
  const findingRuns = new Set<string>(verdict?.verdict === 'failed' ? [verdict.runId] : []);
  const ranOnChange: Record<string, string> = {};
  for (const name of enabledTools) {
    const entry = state.tools[name];
    const current =
      entry?.lastRun?.fingerprint === changeSet.fingerprint && entry.lastRun.configHash === options.configHash;
    if (current) ranOnChange[name] = entry.lastRun!.status;
    if (current && entry.lastFindings && entry.lastFindings.findings.length > 0)
      findingRuns.add(entry.lastFindings.runId);
  }
  const base = {
    fingerprint: changeSet.fingerprint,
    changedFiles: changeSet.files.length,
    enabledTools,
    verdict,
    findingRuns: [...findingRuns],
    latest: state.runs.at(-1) ?? null,
    ranOnChange,
    pendingPolicyEdits: pendingPolicyEdits(state.tools[POLICY_RESULT_NAME], verdict),
  };
  if (isUnchanged(changeSet) || enabledTools.length === 0 || verdict?.verdict === 'passed') {
    return {
      ...base,
      state: 'validated',
      unresolvedFindings: verdict?.verdict === 'passed' ? 0 : unresolvedFindings,
      findingRuns: [],
    };
  }
  if (verdict) return { ...base, state: 'failed', unresolvedFindings };
  if (state.runs.length === 0) return { ...base, state: 'never', unresolvedFindings };
  return {
    ...base,
    state: 'stale',
    unresolvedFindings,
    staleBecause: staleReason(state.runs, changeSet.fingerprint, options.configHash),
  };
}

/** Why no complete run counts for this change: a run of these very files under another config, or with fewer validators. */
function staleReason(
  runs: readonly RunVerdictRecord[],
  fingerprint: string,
  configHash: string,
): NonNullable<GateStatus['staleBecause']> {
  const sameFiles = runs.filter((run) => run.fingerprint === fingerprint && run.complete);
  if (sameFiles.some((run) => run.configHash === configHash)) return 'validators';
  if (sameFiles.length > 0) return 'config';
  return 'files';
}

/** The edited policy files the failed verdict's run reported as pending. */
function pendingPolicyEdits(
  entry: Awaited<ReturnType<typeof readState>>['tools'][string] | undefined,
  verdict: RunVerdictRecord | null,
): string[] {
  if (verdict?.verdict !== 'failed' || entry?.lastFindings?.runId !== verdict.runId) return [];
  return entry.lastFindings.findings.flatMap((finding) => (finding.path ? [finding.path] : []));
}
