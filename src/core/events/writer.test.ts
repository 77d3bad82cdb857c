import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { removeDir, tempDir } from '../../../test/support/temp-home.js';
import { parseEventLog } from './reader.js';
import type { TollgateEvent } from './types.js';
import { createEventLog, newRunId, RUN_ID_PATTERN } from './writer.js';

let dir: string;
beforeEach(async () => {
  dir = await tempDir('tollgate-events-');
});
afterEach(async () => {
  await removeDir(dir);
});

const start = { toolCallId: 'c1', toolName: 'checks', arguments: {} };
const progress = { toolCallId: 'c1', progressMessage: 'npm test' };
const complete = { toolCallId: 'c1', toolName: 'checks', success: true, durationMs: 12, result: { status: 'passed' } };

async function readBack(runDir: string) {
  return parseEventLog(await readFile(join(runDir, 'events.jsonl'), 'utf8'));
}

test('round trip: what is emitted reads back, one JSON line per event, as a linked chain, in a 0600 file', async () => {
  const runDir = join(dir, 'runs', 'r1');
  const log = createEventLog(runDir, { verbose: false });
  const emitted = [
    log.emit('tool.execution_start', start),
    log.emit('tool.execution_complete', complete),
    log.emit('run.end', { runId: 'r1', verdict: 'passed', durationMs: 20 }),
  ];
  log.close();
  const text = await readFile(join(runDir, 'events.jsonl'), 'utf8');
  expect(text.split('\n')).toHaveLength(4);
  const read = await readBack(runDir);
  expect(read.problems).toEqual([]);
  expect(read.events.map((entry) => entry.event)).toEqual(emitted);
  expect(emitted.map((event) => event.parentId)).toEqual([null, emitted[0]!.id, emitted[1]!.id]);
  expect(emitted[0]!.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(Number.isNaN(Date.parse(emitted[0]!.timestamp))).toBe(false);
  expect((await stat(join(runDir, 'events.jsonl'))).mode & 0o777).toBe(0o600);
  expect((await stat(runDir)).mode & 0o777).toBe(0o700);
});

test.each([
  [false, ['tool.execution_start', 'tool.execution_complete']],
  [true, ['tool.execution_start', 'tool.execution_progress', 'tool.execution_complete']],
])(
  'verbose %s: progress is persisted only with --verbose, and is nobody’s parent either way',
  async (verbose, persisted) => {
    const runDir = join(dir, 'r');
    const log = createEventLog(runDir, { verbose });
    const first = log.emit('tool.execution_start', start);
    const tick = log.emit('tool.execution_progress', progress);
    const last = log.emit('tool.execution_complete', complete);
    log.close();
    expect(tick).toMatchObject({ ephemeral: true, parentId: first.id });
    expect(last.parentId).toBe(first.id);
    expect((await readBack(runDir)).events.map((entry) => entry.event.type)).toEqual(persisted);
  },
);

test('listeners get every event, ephemeral ones included, and a throwing listener does not break emit', async () => {
  const log = createEventLog(join(dir, 'r'), { verbose: false });
  const seen: TollgateEvent[] = [];
  log.onEvent(() => {
    throw new Error('display broke');
  });
  const unsubscribe = log.onEvent((event) => seen.push(event));
  log.emit('tool.execution_start', start);
  log.emit('tool.execution_progress', progress);
  unsubscribe();
  log.emit('tool.execution_complete', complete);
  log.close();
  expect(seen.map((event) => event.type)).toEqual(['tool.execution_start', 'tool.execution_progress']);
});

test('an explicit ephemeral flag and parentId override the defaults', () => {
  const log = createEventLog(join(dir, 'r'), { verbose: false });
  const event = log.emit(
    'hook.start',
    { hookInvocationId: 'h1', hookType: 'preToolUse' },
    { ephemeral: true, parentId: 'p' },
  );
  log.close();
  expect(event).toMatchObject({ ephemeral: true, parentId: 'p' });
  expect(log.lastId).toBeNull();
});

test('events emitted after close reach listeners but not the file', async () => {
  const runDir = join(dir, 'r');
  const log = createEventLog(runDir, { verbose: true });
  const seen: string[] = [];
  log.onEvent((event) => seen.push(event.type));
  log.emit('tool.execution_start', start);
  log.close();
  log.emit('tool.execution_progress', progress);
  expect(seen).toEqual(['tool.execution_start', 'tool.execution_progress']);
  expect((await readBack(runDir)).events).toHaveLength(1);
});

test('appending to an existing log keeps what was there', async () => {
  const runDir = join(dir, 'r');
  const first = createEventLog(runDir, { verbose: false });
  first.emit('tool.execution_start', start);
  first.close();
  const second = createEventLog(runDir, { verbose: false });
  second.emit('tool.execution_complete', complete);
  second.close();
  expect((await readBack(runDir)).events).toHaveLength(2);
});

test('run ids sort by time, to the millisecond, and are unique within a second', () => {
  const at = new Date('2026-11-23T10:56:00.789Z');
  // Runs of one repository take its lock before their id: within a second, each starts at a later millisecond.
  const ids = Array.from({ length: 50 }, (_, i) => newRunId(new Date(Date.parse('2026-11-23T10:56:00Z') + i * 20)));
  for (const id of ids) expect(id).toMatch(RUN_ID_PATTERN);
  expect(ids[0]!.startsWith('20261123T105600Z-')).toBe(true);
  expect(new Set(ids).size).toBe(ids.length);
  expect([...ids].sort()).toEqual(ids);
  expect(newRunId(at) > newRunId(new Date('2026-11-23T10:56:00.788Z'))).toBe(true);
  expect(newRunId(new Date('2026-11-23T10:56:01Z')) > newRunId(at)).toBe(true);
  expect(newRunId(new Date('2027-01-01T00:00:00Z')) > newRunId(at)).toBe(true);
});
