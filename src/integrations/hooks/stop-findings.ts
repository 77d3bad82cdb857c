import { type AgentFindingList, agentFindings } from '../../core/run/agent-findings.js';
import { repoConfigLocations } from '../../core/run/config-locations.js';
import type { GateStatus } from '../../core/run/gate-status.js';
import { toolReportsOfRuns } from '../../core/run/run-findings.js';
import { toolPasses } from '../../core/run/run-report.js';
import { listWaivers } from '../../core/state/index.js';

/** Findings the block reason names: enough for an agent in a fresh context to know what to fix. */
const NAMED_FINDINGS = 3;
/** Lines of the first failed check's excerpt in the reason. */
const REASON_EXCERPT_LINES = 6;

/** What the stop hook tells the agent to fix, read back from the runs of the current change. */
export interface StopFindings {
  list: AgentFindingList;
  /** Validators that did not pass without a finding, as `name (status): summary`. */
  brokenTools: string[];
  /** The run to show with `tollgate log RUN`. */
  runId: string;
}

/** The top findings of the runs that examined the current change; null when none did. Never throws. */
export async function stopFindings(
  repoRoot: string,
  status: GateStatus,
  env: NodeJS.ProcessEnv,
): Promise<StopFindings | null> {
  const runId = status.findingRuns[0];
  if (runId === undefined) return null;
  try {
    const waived = new Set((await listWaivers(repoRoot)).map((waiver) => waiver.findingId));
    const reports = (await toolReportsOfRuns(repoRoot, status.findingRuns)).map((tool) => ({
      ...tool,
      findings: tool.findings.filter((finding) => !waived.has(finding.id)),
    }));
    const list = agentFindings(reports, {
      places: await repoConfigLocations(repoRoot, env),
      excerptLines: REASON_EXCERPT_LINES,
      maxFindings: NAMED_FINDINGS,
    });
    // Two runs of the change (a complete one, then a validator alone) may each say the same of a validator: once.
    const brokenTools = new Set(
      reports
        .filter((tool) => tool.findings.length === 0 && !toolPasses(tool))
        .map((tool) => `${tool.name} (${tool.status}): ${tool.summary}`),
    );
    return { list, brokenTools: [...brokenTools], runId };
  } catch {
    return null; // the reason then falls back to the counts in the state file
  }
}
