import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
// @ts-expect-error: a plain ESM module loaded by node --import, without types
import { patientRpcTimers } from './rpc-timeout-preload.mjs';
import { removeDir, tempDir } from './temp-home.js';

describe("vitest's RPC timer in the workers (rpc-timeout-preload.mjs)", () => {
  test("is loaded in this worker, and the tests have Node's own timers back", () => {
    const node = (globalThis as Record<symbol, unknown>)[Symbol.for('tollgate.test.nodeTimers')] as {
      setTimeout: unknown;
    };
    expect(node).toBeDefined();
    expect(globalThis.setTimeout).toBe(node.setTimeout);
  });

  test('an answer that arrived while the event loop was held is read before the timer gives up', async () => {
    const timers = patientRpcTimers(undefined, { rpcTimeoutMs: 50, patientMs: 20 });
    const outcome: string[] = [];
    const timer = timers.setTimeout(() => outcome.push('onTimeoutError'), 50);
    const armed = performance.now();
    // The answer comes from another process, as the main process's does: in the pipe while this loop is held.
    const written = join(await tempDir('rpc-timer-'), 'written');
    const child = spawn('sh', ['-c', `echo answer; : > '${written}'`], { stdio: ['ignore', 'pipe', 'ignore'] });
    const answered = new Promise<void>((resolve) =>
      child.stdout.once('data', () => {
        timers.clearTimeout(timer);
        outcome.push('answer');
        resolve();
      }),
    );
    const hold = new Int32Array(new SharedArrayBuffer(4));
    while (!existsSync(written) || performance.now() - armed < 100) Atomics.wait(hold, 0, 0, 5);
    await answered;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(outcome).toEqual(['answer']);
    await removeDir(dirname(written));
  });

  test('with no answer it still gives up, and other timers are untouched', async () => {
    const timers = patientRpcTimers(undefined, { rpcTimeoutMs: 50, patientMs: 20 });
    const outcome: string[] = [];
    timers.setTimeout(() => outcome.push('onTimeoutError'), 50);
    const plain = timers.setTimeout(() => outcome.push('plain'), 10);
    expect(plain.constructor.name).toBe('Timeout');
    while (outcome.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(outcome.sort()).toEqual(['onTimeoutError', 'plain']);
  });
});
