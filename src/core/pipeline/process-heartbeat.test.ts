import { describe, expect, test } from 'vitest';
import { runProcess } from '../process.js';
import { heartbeatInterval, withHeartbeat } from './process-heartbeat.js';

describe('withHeartbeat', () => {
  test('announces a child that runs past the interval, with its last output line, and stops when it ends', async () => {
    const beats: string[] = [];
    const run = withHeartbeat(runProcess, 100, (message) => beats.push(message));
    const outcome = await run('sh', ['-c', 'echo first; echo "\u001b[32msecond\u001b[0m"; sleep 0.45'], {
      cwd: process.cwd(),
      timeoutMs: 10_000,
    });
    expect(outcome.exitCode).toBe(0);
    expect(outcome.stdout).toContain('second');
    expect(beats.length).toBeGreaterThanOrEqual(2);
    expect(beats.at(-1)).toMatch(/^still running `echo first; echo .*sleep 0\.45` after \d+s; last output: second$/);
    const count = beats.length;
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(beats.length).toBe(count);
  });

  test('each beat carries what the child printed since the last one, as a partial result', async () => {
    const partials: string[] = [];
    const run = withHeartbeat(runProcess, 150, (_message, partial) => partials.push(partial));
    await run('sh', ['-c', 'echo one; sleep 0.25; echo "\u001b[31mtwo\u001b[0m"; sleep 0.3'], {
      cwd: process.cwd(),
      timeoutMs: 10_000,
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
