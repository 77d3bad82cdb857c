import { describe, expect, test } from 'vitest';
import { pendingPolicyTool } from '../../test/support/pending-policy-tool.js';
import { runReportWith } from '../../test/support/run-report.js';
import { makeFinding } from '../core/finding.js';
import type { Reader } from '../core/reader.js';
import type { ToolReport } from '../core/run/run-report.js';
import { renderMarkdown } from './markdown.js';
import { nextStep } from './next-step.js';

/** A pending policy edit in the Next line and the report: the command for a person, "a person must" for an agent. */
const policy = pendingPolicyTool('tollgate.config.yaml');
const failedCheck: ToolReport = {
  name: 'checks',
  title: 'Project checks',
  status: 'failed',
  summary: '1 check failed',
  durationMs: 1,
  findings: [makeFinding({ validator: 'checks', ruleId: 'unit', severity: 'high', title: 'unit failed', anchor: 'u' })],
};
const upstream = {
  base: {
    ref: 'origin/main',
    commit: 'a'.repeat(40),
    source: 'upstream' as const,
    refName: 'refs/remotes/origin/main',
  },
};

const PERSON = (merge: string) =>
  `To apply your policy edit (tollgate.config.yaml), run \`tollgate policy accept\` (it shows the edit and asks you to confirm)${merge}; to drop it, restore the file as the base has it.`;
const AGENT =
  'Only a person can accept a policy edit (tollgate.config.yaml): tell the user it is pending; a waiver does not end it. To go on without it, restore the file as the base has it.';

describe('the next step while a policy edit is pending', () => {
  test.each<[string, Reader, ToolReport[], object, string]>([
    ['a person, no upstream', 'person', [policy], {}, `${PERSON('')} Then run \`tollgate run\` again.`],
    [
      'a person, with an upstream',
      'person',
      [policy],
      upstream,
      `${PERSON(', or merge it into `origin/main`')} Then run \`tollgate run\` again.`,
    ],
    ['an agent, with an upstream', 'agent', [policy], upstream, `${AGENT} Then run \`tollgate run\` again.`],
    [
      'an agent, with other findings',
      'agent',
      [failedCheck, policy],
      {},
      `Fix the other findings above, then run \`tollgate run\` again (to accept a low-risk one instead, \`tollgate waive ID --reason "…"\`). ${AGENT}`,
    ],
  ])('%s', (_name, reader, tools, overrides, expected) => {
    expect(nextStep(runReportWith(tools, overrides), 'above', reader)).toBe(expected);
  });

  test('the command appears in a person’s report only, under the policy section', () => {
    const report = runReportWith([policy]);
    expect(renderMarkdown(report, 'person')).toContain('run `tollgate policy accept` in your terminal');
    expect(renderMarkdown(report)).not.toContain('policy accept');
    expect(renderMarkdown(report, 'agent')).not.toContain('policy accept');
  });
});
