import { makeFinding } from '../../src/core/finding.js';
import { POLICY_RESULT_NAME } from '../../src/core/result.js';
import type { ToolReport } from '../../src/core/run/run-report.js';

/** A run's `policy` section with one pending edit of `path`, as the run reports it (src/core/run/pending-policy.ts). */
export function pendingPolicyTool(path: string, edit: 'added' | 'edited' = 'edited'): ToolReport {
  return {
    name: POLICY_RESULT_NAME,
    title: 'Policy',
    status: 'failed',
    summary: `1 policy edit pending a person's review (${path})`,
    durationMs: 0,
    findings: [
      makeFinding({
        validator: POLICY_RESULT_NAME,
        ruleId: 'policy-change',
        severity: 'high',
        title: `Policy edit not applied: ${path} (${edit})`,
        path,
        anchor: 'a..b',
      }),
    ],
  };
}
