import { afterEach, beforeEach, expect, test } from 'vitest';
import { removeDir, tempDir } from '../../../test/support/temp-home.js';
import { makeFinding } from '../finding.js';
import type { ToolExecution } from '../pipeline/execute-tool.js';
import { result } from '../result.js';
import { canSkipNoChanges, ensureTollgateDir, lastVerdictFor, waiveFinding } from '../state/index.js';
import { persistRun } from './persist-run.js';

let root: string;
beforeEach(async () => {
  root = await tempDir('tollgate-persist-');
  ensureTollgateDir(root);
});
afterEach(() => removeDir(root));

const finding = makeFinding({
  validator: 'checks',
  severity: 'medium',
  title: 'check "lint" failed (exit 1)',
  anchor: 'lint',
});
const failed: ToolExecution = {
  toolCallId: 'c1',
  toolName: 'checks',
  title: 'Project checks',
  result: result('failed', '1 of 1 check(s) failed', [finding]),
  durationMs: 5,
  additionalContext: [],
  scope: null,
};
const persist = (runId: string) =>
  persistRun({
    repoRoot: root,
    runId,
    fingerprint: 'fp',
    configHash: 'cfg',
    head: null,
    executions: [failed],
    complete: true,
  });

test('a failure whose findings are all waived passes the run, but never becomes the skip baseline', async () => {
  expect((await persist('20261123T000000Z-aaaaaa')).verdict).toBe('failed');
  await waiveFinding(root, {
    findingId: finding.id,
    reason: 'known flaky lint rule',
    human: false,
    allow: ['low', 'medium'],
    env: {},
  });

  const second = await persist('20261123T000001Z-bbbbbb');
  expect(second.verdict).toBe('passed');
  expect(second.tools[0]).toMatchObject({
    status: 'passed',
    findings: [{ id: finding.id, waiver: { reason: 'known flaky lint rule' } }],
  });
  // The verdict (what the stop hook reads) passed; the validator's own baseline did not advance.
  expect(await lastVerdictFor(root, 'fp', { configHash: 'cfg' })).toMatchObject({ verdict: 'passed' });
  expect(await canSkipNoChanges(root, { tool: 'checks', fingerprint: 'fp', configHash: 'cfg' })).toEqual({
    skip: false,
  });
});

test('removing a waiver withdraws the passing verdict it made possible', async () => {
  const { removeWaiver } = await import('../state/index.js');
  await persist('20261123T000000Z-aaaaaa');
  await waiveFinding(root, { findingId: finding.id, reason: 'flaky', human: true, allow: [], env: {} });
  await persist('20261123T000001Z-bbbbbb');
  expect(await lastVerdictFor(root, 'fp', { configHash: 'cfg' })).toMatchObject({ verdict: 'passed' });
  await removeWaiver(root, finding.id, { human: true, env: {} });
  // What is left is the run before the waiver: failed, so the stop hook blocks again.
  expect(await lastVerdictFor(root, 'fp', { configHash: 'cfg' })).toMatchObject({ verdict: 'failed' });
});
