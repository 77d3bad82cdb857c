import { afterEach, beforeEach, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { runInProcess } from '../../../test/support/in-process-cli.js';
import { createEventLog } from '../../core/events/writer.js';
import { runDirFor } from '../../core/state/tollgate-dir.js';
import { registerLog } from './log.js';

let repo: TempRepo;

beforeEach(async () => {
  repo = await createTempRepo();
});
afterEach(async () => {
  await repo.cleanup();
});

async function tollgate(...args: string[]): Promise<string> {
  return (await runInProcess(args, { register: [registerLog], cwd: repo.root, env: repo.env })).output;
}

function recordRun(runId: string, verdict: 'passed' | 'failed' | null): void {
  const log = createEventLog(runDirFor(repo.root, runId), { verbose: false });
  log.emit('run.start', {
    runId,
    command: 'tollgate run',
    repoRoot: repo.root,
    base: { ref: 'main', commit: null, source: 'default-branch' },
    fingerprint: 'fp',
    configHash: 'cfg',
    tools: ['checks'],
  });
  log.emit('tool.execution_start', { toolCallId: 'c1', toolName: 'checks', arguments: {} });
  if (verdict) {
    log.emit('tool.execution_complete', {
      toolCallId: 'c1',
      toolName: 'checks',
      success: true,
      durationMs: 1500,
      result: { status: verdict, summary: 'done', findings: [] },
    });
    log.emit('run.end', { runId, verdict, durationMs: 1600 });
  }
  log.close();
}

test('shows the latest run by default, flagging a call that never completed', async () => {
  recordRun('20261123T105600Z-aaaaaa', 'passed');
  recordRun('20261123T110000Z-bbbbbb', null);
  const text = await tollgate('log');
  expect(text).toMatch(/^run 20261123T110000Z-bbbbbb: interrupted/);
  expect(text).toContain('checks  started, never completed: the run was killed');
});

test('shows a given run, and --json gives the replayed summary', async () => {
  recordRun('20261123T105600Z-aaaaaa', 'passed');
  recordRun('20261123T110000Z-bbbbbb', null);
  const json = JSON.parse(await tollgate('log', '20261123T105600Z-aaaaaa', '--json'));
  expect(json).toMatchObject({
    runId: '20261123T105600Z-aaaaaa',
    state: 'finished',
    end: { verdict: 'passed' },
    tools: [{ toolName: 'checks', state: 'completed', status: 'passed', durationMs: 1500 }],
  });
});

test('--list shows recent runs, newest first', async () => {
  recordRun('20261123T105600Z-aaaaaa', 'passed');
  recordRun('20261123T110000Z-bbbbbb', null);
  const lines = (await tollgate('log', '--list')).trimEnd().split('\n');
  expect(lines.map((line) => line.split(/\s+/).slice(0, 2))).toEqual([
    ['20261123T110000Z-bbbbbb', 'interrupted'],
    ['20261123T105600Z-aaaaaa', 'passed'],
  ]);
  expect(JSON.parse(await tollgate('log', '--list', '--limit', '1', '--json'))).toHaveLength(1);
});

test.each([
  ['an unknown run id', ['log', 'nope'], 'no run "nope" in .tollgate/runs (tollgate log --list shows them)'],
  [
    'a run id that climbs out of the runs folder',
    ['log', '../..'],
    'no run "../.." in .tollgate/runs (tollgate log --list shows them)',
  ],
])('%s is not_found', async (_case, args, message) => {
  recordRun('20261123T105600Z-aaaaaa', 'passed');
  await expect(tollgate(...args)).rejects.toMatchObject({ code: 'not_found', message });
});

test('with no runs yet, says how to make one', async () => {
  await expect(tollgate('log')).rejects.toMatchObject({
    code: 'not_found',
    message: 'no runs in .tollgate/runs yet; `tollgate run` records one',
  });
  expect(await tollgate('log', '--list')).toBe('no runs yet; `tollgate run` records one\n');
});
