import { randomUUID } from 'node:crypto';
import { makeFinding } from '../finding.js';
import type { ToolExecution } from '../pipeline/execute-tool.js';
import { checksNotApplied, effectsNotApplied } from '../policy/config-edit-effects.js';
import type { EffectivePolicy, PolicyFile } from '../policy/effective-policy.js';
import { POLICY_RESULT_NAME, result } from '../result.js';

/**
 * The run's answer to pending policy edits: one high finding per edited policy file, which the run was not judged
 * by. Null when nothing is pending. The finding's id follows the exact edit (base and working blob), so a waiver of
 * one edit never covers the next. The text tells what happened and who decides, not how to get past it.
 */
export function pendingPolicyExecution(policy: EffectivePolicy): ToolExecution | null {
  const pending = policy.pending();
  if (pending.length === 0) return null;
  const base = policy.baseCommit ? `the base commit ${policy.baseCommit.slice(0, 12)}` : 'no commit (defaults)';
  const findings = pending.map((file) =>
    makeFinding({
      validator: POLICY_RESULT_NAME,
      ruleId: 'policy-change',
      severity: 'high',
      title: `Policy edit not applied: ${file.path} ${describeEdit(file)}`,
      body: `${file.path} is part of tollgate's policy. This run judged the change by the policy at ${base}, not by this edit; the edit applies once a person reviews and accepts it, or once it is merged into the base. To go on without it, restore the file as the base has it.`,
      path: file.path,
      anchor: `${file.base ?? 'none'}..${file.working ?? 'none'}`,
    }),
  );
  const names = pending.map((file) => file.path).join(', ');
  return {
    toolCallId: randomUUID(),
    toolName: POLICY_RESULT_NAME,
    title: 'Policy',
    result: result(
      'failed',
      `${pending.length} policy edit${pending.length === 1 ? '' : 's'} pending a person's review (${names}): this run used the policy at ${base} instead.${notApplied(policy)}`,
      findings,
      {
        baseCommit: policy.baseCommit,
        mode: policy.mode,
        pending: pending.map(({ path, base, working }) => ({ path, base, working })),
      },
    ),
    durationMs: 0,
    startedAt: new Date().toISOString(),
    additionalContext: [],
    scope: null,
  };
}

/** " Not applied: 2 checks from your edit did not run (test, lint); your edit turns off `advisories`." */
function notApplied(policy: EffectivePolicy): string {
  const clauses = policy.configEdit ? effectsNotApplied(policy.configEdit) : [];
  return clauses.length > 0 ? ` Not applied: ${clauses.join('; ')}.` : '';
}

/**
 * The checks section while an edit of the config is pending: the checks the edit adds, changes or removes, said where
 * a reader looks for them. With no checks in the base's config, this replaces "no checks configured", which would
 * be false to whoever just added some.
 */
export function withPendingChecksNote(
  executions: readonly ToolExecution[],
  policy: EffectivePolicy,
  baseChecks: number,
): ToolExecution[] {
  const clauses = policy.configEdit ? checksNotApplied(policy.configEdit) : [];
  if (clauses.length === 0) return [...executions];
  const note = `${clauses.join('; ')}: the edit is pending`;
  return executions.map((execution) => {
    if (execution.toolName !== CHECKS_TOOL) return execution;
    const replaces = baseChecks === 0 && execution.result.status === 'passed';
    const before = execution.result.summary.replace(/[.;:,]?\s*$/, '.');
    const summary = replaces ? note : `${before} ${upperFirst(note)}.`;
    return { ...execution, result: { ...execution.result, summary } };
  });
}

const CHECKS_TOOL = 'checks';

function upperFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function describeEdit(file: PolicyFile): string {
  if (file.base === null) return '(added)';
  if (file.working === null) return '(deleted)';
  return '(edited)';
}
