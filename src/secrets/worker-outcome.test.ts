import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { startWorker } from './parallel-scan.js';
import { emptyScanOutcome } from './scan-targets.js';

const dir = mkdtempSync(join(tmpdir(), 'tollgate-worker-outcome-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A stand-in for the scan worker: `body` runs with `parentPort` in scope. */
function workerScript(name: string, body: string): URL {
  const path = join(dir, name);
  writeFileSync(path, `import { parentPort } from 'node:worker_threads';\n${body}\n`);
  return pathToFileURL(path);
}

describe("a scan worker's outcome", () => {
  test('arrives with its message, before its thread has exited (a heap takes a while to tear down)', async () => {
    const outcome = { ...emptyScanOutcome(), scannedFiles: 7 };
    // Held for a moment after its message, as a worker's teardown holds its thread.
    const script = workerScript(
      'slow-exit.mjs',
      `parentPort.postMessage(${JSON.stringify(outcome)});\nparentPort.once('message', () => {});\nsetTimeout(() => process.exit(0), 60_000).unref();`,
    );
    const started = startWorker(script);
    let exited = false;
    const worker = started.worker as unknown as import('node:worker_threads').Worker;
    worker.once('exit', () => {
      exited = true;
    });
    started.worker.ref();
    await expect(started.outcome).resolves.toMatchObject({ scannedFiles: 7 });
    expect(exited).toBe(false);
    await started.worker.terminate();
  });

  test('a worker that ends without its outcome fails the scan, naming its exit code', async () => {
    const started = startWorker(workerScript('no-outcome.mjs', 'process.exit(3);'));
    started.worker.ref();
    await expect(started.outcome).rejects.toThrow('secret scan worker exited with code 3 before it finished its files');
  });

  test('a worker that throws fails the scan with its error', async () => {
    const started = startWorker(workerScript('throws.mjs', "throw new Error('rules did not load');"));
    started.worker.ref();
    await expect(started.outcome).rejects.toThrow('rules did not load');
  });
});
