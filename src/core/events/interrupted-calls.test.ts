import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { removeDir, tempDir } from '../../../test/support/temp-home.js';
import { trackOpenCalls } from './interrupted-calls.js';
import { parseEventLog } from './reader.js';
import { replayRun } from './replay.js';
import { createEventLog } from './writer.js';

let dir: string;
beforeEach(async () => {
  dir = await tempDir('tollgate-interrupted-');
});
afterEach(async () => {
  await removeDir(dir);
});

test('a signal closes each started, uncompleted call with an unsuccessful completion naming the signal', async () => {
  const log = createEventLog(dir, { verbose: false });
  const tracker = trackOpenCalls(log);
  log.emit('run.start', {
    runId: 'r1',
    command: 'tollgate run',
    repoRoot: dir,
    base: { ref: 'main', commit: null, source: 'flag' },
    fingerprint: 'fp',
    configHash: 'cfg',
    tools: ['checks', 'secrets', 'review'],
  });
  log.emit('tool.execution_start', { toolCallId: 'c1', toolName: 'checks', arguments: {} });
  log.emit('tool.execution_complete', { toolCallId: 'c1', toolName: 'checks', success: true, durationMs: 3 });
  log.emit('tool.execution_start', { toolCallId: 'c2', toolName: 'secrets', arguments: {} });
  log.emit('tool.execution_start', { toolCallId: 'c3', toolName: 'review', arguments: {} });
  tracker.interrupt('SIGHUP');
  log.emit('run.abort', { runId: 'r1', signal: 'SIGHUP', durationMs: 5 });
  log.close();

  const read = parseEventLog(await readFile(join(dir, 'events.jsonl'), 'utf8'));
  const { events, problems } = read;
  expect(problems).toEqual([]);
  const completions = events
    .map((entry) => entry.event)
    .filter((event) => event.type === 'tool.execution_complete')
    .map((event) => event.data);
  expect(completions).toEqual([
    expect.objectContaining({ toolCallId: 'c1', success: true }),
    expect.objectContaining({
      toolCallId: 'c2',
      toolName: 'secrets',
      success: false,
      error: { message: 'interrupted by SIGHUP', code: 'interrupted' },
    }),
    expect.objectContaining({ toolCallId: 'c3', toolName: 'review', success: false }),
  ]);
  const summary = replayRun(read);
  expect(summary.tools.every((call) => call.state === 'completed')).toBe(true);
});

test('a run that ended normally emits nothing more when stopped', async () => {
  const log = createEventLog(dir, { verbose: false });
  const tracker = trackOpenCalls(log);
  log.emit('tool.execution_start', { toolCallId: 'c1', toolName: 'checks', arguments: {} });
  tracker.stop();
  tracker.interrupt('SIGINT');
  log.close();
  const { events } = parseEventLog(await readFile(join(dir, 'events.jsonl'), 'utf8'));
  expect(events.map((entry) => entry.event.type)).toEqual(['tool.execution_start']);
});
