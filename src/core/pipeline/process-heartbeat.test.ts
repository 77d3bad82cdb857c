import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { runProcess } from '../process.js';
import { heartbeatInterval, withHeartbeat } from './process-heartbeat.js';

/** A child that waits for `file` holds on until the test has seen what it waits for: no race with the clock. */
const waitFor = (file: string) => `while [ ! -e '${file}' ]; do sleep 0.02; done`;

describe('withHeartbeat', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tollgate-heartbeat-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('announces a child that runs past the interval, with its last output line, and stops when it ends', async () => {
    const beats: string[] = [];
    const done = join(dir, 'done');
    const run = withHeartbeat(runProcess, 100, (message) => {
      beats.push(message);
      // The child runs on until two beats have named its last line, however late a loaded machine fires them.
      if (beats.filter((beat) => beat.endsWith('last output: second')).length === 2) writeFileSync(done, '');
    });
    const outcome = await run('sh', ['-c', `echo first; echo "\u001b[32msecond\u001b[0m"; ${waitFor(done)}`], {
      cwd: process.cwd(),
      timeoutMs: 60_000,
    });
    expect(outcome.exitCode).toBe(0);
    expect(outcome.stdout).toContain('second');
    expect(beats.length).toBeGreaterThanOrEqual(2);
    expect(beats.at(-1)).toMatch(/^still running `echo first; echo .*` after \d+s; last output: second$/);
    const count = beats.length;
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(beats.length).toBe(count);
  });

  test('each beat carries what the child printed since the last one, as a partial result', async () => {
    const partials: string[] = [];
    const [heardOne, heardTwo] = [join(dir, 'one'), join(dir, 'two')];
    // The child prints its second line only once a beat has carried the first, and ends once one has carried both.
    const run = withHeartbeat(runProcess, 150, (_message, partial) => {
      partials.push(partial);
      if (partial.includes('one')) writeFileSync(heardOne, '');
      if (partial.includes('two')) writeFileSync(heardTwo, '');
    });
    await run('sh', ['-c', `echo one; ${waitFor(heardOne)}; echo "\u001b[31mtwo\u001b[0m"; ${waitFor(heardTwo)}`], {
      cwd: process.cwd(),
      timeoutMs: 60_000,
    });
    const said = partials.filter((partial) => partial !== '');
    expect(said[0]).toBe('one\n');
    expect(said).toContain('two\n');
    expect(partials.join('')).toBe('one\ntwo\n');
  });

  test('a quick child gets no heartbeat; the interval comes from TOLLGATE_HEARTBEAT_MS when valid', async () => {
    const beats: string[] = [];
    await withHeartbeat(runProcess, 5_000, (message) => beats.push(message))('true', [], { cwd: process.cwd() });
    expect(beats).toEqual([]);
    expect(heartbeatInterval({ TOLLGATE_HEARTBEAT_MS: '250' })).toBe(250);
    expect(heartbeatInterval({ TOLLGATE_HEARTBEAT_MS: 'soon' })).toBe(10_000);
    expect(heartbeatInterval({})).toBe(10_000);
  });
});
