import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
    // The answer comes from another process, as the main process's does, on a pipe this process already reads; it
    // writes once told to (the file `go`), while this process's event loop is held.
    const dir = await tempDir('rpc-timer-');
    const [go, written] = [join(dir, 'go'), join(dir, 'written')];
    const child = spawn('sh', ['-c', `while [ ! -e '${go}' ]; do sleep 0.01; done; echo answer; : > '${written}'`], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const answered = new Promise<void>((resolve) =>
      child.stdout.once('data', () => {
        timers.clearTimeout(timer);
        outcome.push('answer');
        resolve();
      }),
    );
    await new Promise((resolve) => child.once('spawn', resolve));
    await new Promise((resolve) => setImmediate(resolve));
    const timer = timers.setTimeout(() => outcome.push('onTimeoutError'), 50);
    const armed = performance.now();
    writeFileSync(go, '');
    const hold = new Int32Array(new SharedArrayBuffer(4));
    // Held until the answer is in the pipe, and far past the timeout.
    while (!existsSync(written) || performance.now() - armed < 100) Atomics.wait(hold, 0, 0, 5);
    await answered;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(outcome).toEqual(['answer']);
    await removeDir(dir);
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
