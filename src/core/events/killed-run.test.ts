import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { removeDir, tempDir } from '../../../test/support/temp-home.js';
import { acquireLock } from '../state/lock.js';
import { canSkipNoChanges, readState, recordResult } from '../state/results-store.js';
import { readEventLog } from './reader.js';
import { renderRunLog } from './render-log.js';
import { replayRun } from './replay.js';

/**
 * A real tollgate-like process, killed with SIGKILL in the middle of a tool call while it is appending events and
 * rewriting state.json as fast as it can. The TypeScript under test is bundled with esbuild into a temp script, so
 * the child runs this very source without a prior build.
 */
const CHILD = `
import { createEventLog } from './events/writer.js';
import { acquireLock } from './state/lock.js';
import { recordResult } from './state/results-store.js';
import { runDirFor } from './state/tollgate-dir.js';
const repoRoot = process.argv[2];
const runId = '20261123T105600Z-ab12cd';
await acquireLock(repoRoot, { wait: false, command: 'tollgate run' });
const log = createEventLog(runDirFor(repoRoot, runId), { verbose: true });
log.emit('run.start', { runId, command: 'tollgate run', repoRoot, base: { ref: 'main', commit: null, source: 'flag' }, fingerprint: 'fp', configHash: 'cfg', tools: ['checks', 'secrets'] });
log.emit('tool.execution_start', { toolCallId: 'c1', toolName: 'checks', arguments: {} });
const finding = { id: '1a2b3c4d5e6f7a8b', validator: 'checks', severity: 'high', title: 'check "test" failed', path: 'src/a.ts', line: 3, sources: ['checks'] };
log.emit('tool.execution_complete', { toolCallId: 'c1', toolName: 'checks', success: true, durationMs: 7, result: { status: 'failed', summary: '1 check failed', findings: [finding] } });
await recordResult(repoRoot, { tool: 'checks', fingerprint: 'fp', configHash: 'cfg', status: 'failed', runId, at: new Date().toISOString(), findings: [finding] });
log.emit('tool.execution_start', { toolCallId: 'c2', toolName: 'secrets', arguments: {} });
let signalled = false;
for (let i = 0; ; i++) {
  log.emit('tool.execution_progress', { toolCallId: 'c2', progressMessage: 'scanned ' + i + ' ' + 'x'.repeat(i % 4000) });
  if (i % 20 === 0) {
    await recordResult(repoRoot, { tool: 'other_' + (i % 7), fingerprint: 'fp-' + i, configHash: 'cfg', status: 'passed', runId, at: new Date().toISOString() });
    if (!signalled && i >= 200) { signalled = true; process.stdout.write('busy\\n'); }
  }
}
`;

let bundleDir: string;
let repo: string;

beforeAll(async () => {
  bundleDir = await tempDir('tollgate-kill-bundle-');
  repo = await tempDir('tollgate-kill-');
  await build({
    stdin: {
      contents: CHILD,
      resolveDir: join(dirname(fileURLToPath(import.meta.url)), '..'),
      loader: 'ts',
      sourcefile: 'child.ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: join(bundleDir, 'child.mjs'),
    logLevel: 'silent',
  });
});
afterAll(async () => {
  await removeDir(bundleDir);
  await removeDir(repo);
});

test('a run killed with SIGKILL mid-call leaves a readable log, an orphaned call, valid state and a stale lock', async () => {
  const child = spawn(process.execPath, [join(bundleDir, 'child.mjs'), repo], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('busy')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`child exited (${code}) before it got busy`)));
  });
  // Let it run on a little so the kill lands at an arbitrary point of a write.
  await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 80));
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');

  const runDir = join(repo, '.tollgate', 'runs', '20261123T105600Z-ab12cd');
  const read = await readEventLog(join(runDir, 'events.jsonl'));
  // Each event is one write(2) of a whole line, so a kill should never cut one; were it cut, the reader tolerates it.
  expect(read.problems).toHaveLength(read.truncatedLastLine ? 1 : 0);
  expect(read.events.length).toBeGreaterThan(200);
  const summary = replayRun(read);
  expect(summary.state).toBe('interrupted');
  expect(summary.tools.map((tool) => [tool.toolName, tool.state, tool.status])).toEqual([
    ['checks', 'completed', 'failed'],
    ['secrets', 'orphaned', null],
  ]);
  expect(renderRunLog('20261123T105600Z-ab12cd', summary)).toContain(
    'secrets  started, never completed: the run was killed',
  );

  // state.json is whole (atomic rename), and stray temp files are at most the one being written at the kill.
  const stateText = await readFile(join(repo, '.tollgate', 'state.json'), 'utf8');
  expect(() => JSON.parse(stateText)).not.toThrow();
  expect((await readState(repo)).tools.checks?.lastRun?.status).toBe('failed');
  const strays = (await readdir(join(repo, '.tollgate'))).filter((name) => name.endsWith('.tmp'));
  expect(strays.length).toBeLessThanOrEqual(1);

  // The dead run's locks (run lock, and the state lock if it died holding it) are taken over.
  const lock = await acquireLock(repo, { wait: false });
  lock.release();
  await recordResult(repo, {
    tool: 'secrets',
    fingerprint: 'fp',
    configHash: 'cfg',
    status: 'passed',
    runId: 'r2',
    at: new Date().toISOString(),
  });
  expect(await canSkipNoChanges(repo, { tool: 'secrets', fingerprint: 'fp', configHash: 'cfg' })).toMatchObject({
    skip: true,
  });
  expect(await canSkipNoChanges(repo, { tool: 'checks', fingerprint: 'fp', configHash: 'cfg' })).toEqual({
    skip: false,
  });
});
