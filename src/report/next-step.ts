import { remoteBranchOf } from '../core/change-set/describe-base.js';
import { whatEndsPendingEdit } from '../core/policy/pending-edit-advice.js';
import type { Reader } from '../core/reader.js';
import { POLICY_RESULT_NAME } from '../core/result.js';
import { blockingFindings, type RunReport, toolPasses } from '../core/run/run-report.js';

/**
 * What an agent should do next, given how the run ended. Shared by every renderer; `where` says where the details
 * are in relation to the sentence (after it on the HTML page, before it everywhere else).
 */
export function nextStep(report: RunReport, where: 'above' | 'below' = 'above', reader: Reader = 'agent'): string {
  const statuses = new Set(report.tools.map((tool) => tool.status));
  if (statuses.has('timeout') || statuses.has('budget_exhausted')) {
    return 'Validation ran out of time. Do not rerun it as is: split the change, give slow checks `paths`, or raise `validation.timeout`.';
  }
  if (report.verdict === 'passed') {
    const warnings = report.tools.filter((tool) => tool.status === 'tool_unavailable').map((tool) => tool.name);
    const note = warnings.length > 0 ? ` (${warnings.join(', ')} could not run here: see ${where})` : '';
    const scoped = report.tools.filter((tool) => tool.scope);
    if (scoped.length > 0) {
      const what = scoped.map((tool) => `${tool.name} (${tool.scope})`).join(', ');
      return `Passed on part of the change only: ${what}. This does not validate the change: run \`tollgate run\` before declaring it done.`;
    }
    return report.partial
      ? `The selected validators passed${note}. Run \`tollgate run\` without --only/--skip before declaring the change done.`
      : `All validators passed${note}. The change may be declared done.`;
  }
  if (statuses.has('rate_limited')) {
    return 'A validator was rate limited. Wait a few minutes, then run `tollgate run` again; the other results are kept.';
  }
  const blocking = report.tools.filter((tool) => blockingFindings(tool).length > 0);
  const edits = pendingPolicyPaths(report);
  if (edits.length > 0) {
    const ends = whatEndsPendingEdit({ reader, paths: edits, remote: remoteBranchOf(report.base) });
    if (blocking.every((tool) => tool.name === POLICY_RESULT_NAME)) return `${ends} Then run \`tollgate run\` again.`;
    return `Fix the other findings ${where}, then run \`tollgate run\` again (to accept a low-risk one instead, \`tollgate waive ID --reason "…"\`). ${ends}`;
  }
  if (blocking.length > 0) {
    return `Fix the findings ${where}, then run \`tollgate run\` again. To accept a low-risk finding instead, \`tollgate waive ID --reason "…"\`.`;
  }
  const broken = report.tools.filter((tool) => !toolPasses(tool)).map((tool) => tool.name);
  return `${broken.join(', ')} could not finish: read the summary ${where}, fix the cause (config, input or environment), then run \`tollgate run\` again.`;
}

/** The policy files whose pending edit blocks the run (docs/policy.md). */
export function pendingPolicyPaths(report: Pick<RunReport, 'tools'>): string[] {
  const policy = report.tools.find((tool) => tool.name === POLICY_RESULT_NAME);
  return policy ? blockingFindings(policy).flatMap((finding) => (finding.path ? [finding.path] : [])) : [];
}
