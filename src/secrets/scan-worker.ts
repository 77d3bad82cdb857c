import { readFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { type QueuedFile, scanQueue } from './disk-queue.js';
import { loadScanner } from './load-rules.js';
import type { SecretsOptions } from './options.js';

/**
 * A worker thread of `parallel-scan.ts`. It is started while the files are still being listed, so it builds its own
 * scanner (rule functions cannot cross threads) meanwhile; then it takes its share of the files from the shared queue
 * (`WorkerFiles`, posted once the list is known) until the queue is empty, and posts back one outcome, which holds
 * masked findings only.
 */
export interface WorkerJob {
  repoRoot: string;
  options: SecretsOptions;
  baseline: string[];
  baselineLabel?: string;
  reportRejected?: boolean;
}

/** The files to scan, largest first, and the queue's claim counter (an Int32Array's buffer). */
export interface WorkerFiles {
  files: QueuedFile[];
  claim: SharedArrayBuffer;
}

const job = workerData as WorkerJob;
const port = parentPort!;
const files = new Promise<WorkerFiles>((resolve) => port.once('message', resolve));
const { scanner, imported } = await loadScanner(job.repoRoot, job.options);
const queue = await files;
const outcome = scanQueue(
  queue.files,
  new Int32Array(queue.claim),
  {
    scanner,
    baseline: new Set(job.baseline),
    imported,
    ...(job.reportRejected ? { reportRejected: true } : {}),
    ...(job.baselineLabel === undefined ? {} : { baselineLabel: job.baselineLabel }),
  },
  (file) => () => readFile(file.absolute),
  job.repoRoot,
);
port.postMessage(outcome);
