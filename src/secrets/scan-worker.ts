import { readFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { type QueuedFile, scanQueue } from './disk-queue.js';
import { loadScanner } from './load-rules.js';
import type { SecretsOptions } from './options.js';

/**
 * A worker thread of `parallel-scan.ts`: builds its own scanner (rule functions cannot cross threads), then takes
 * files from the shared queue until it is empty, and posts back one outcome, which holds masked findings only.
 */
export interface WorkerJob {
  repoRoot: string;
  options: SecretsOptions;
  files: QueuedFile[];
  /** An Int32Array's buffer: the index of the next file to claim. */
  claim: SharedArrayBuffer;
  baseline: string[];
  baselineLabel?: string;
  reportRejected?: boolean;
}

const job = workerData as WorkerJob;
const { scanner, imported } = await loadScanner(job.repoRoot, job.options);
const outcome = scanQueue(
  job.files,
  new Int32Array(job.claim),
  {
    scanner,
    baseline: new Set(job.baseline),
    imported,
    ...(job.reportRejected ? { reportRejected: true } : {}),
    ...(job.baselineLabel === undefined ? {} : { baselineLabel: job.baselineLabel }),
  },
  (file) => () => readFile(file.absolute),
);
parentPort?.postMessage(outcome);
