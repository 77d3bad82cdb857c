import { readFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { loadScanner } from './load-rules.js';
import type { SecretsOptions } from './options.js';
import { scanTargets } from './scan-targets.js';

/**
 * A worker thread of `parallel-scan.ts`: builds its own scanner (rule functions cannot cross threads), scans its share
 * of the files, and posts back the outcome, which holds masked findings only.
 */
export interface WorkerJob {
  repoRoot: string;
  options: SecretsOptions;
  files: Array<{ path: string; absolute: string }>;
  baseline: string[];
  maxBytes?: number;
}

const job = workerData as WorkerJob;
const { scanner, imported } = await loadScanner(job.repoRoot, job.options);
const outcome = await scanTargets(
  job.files.map((file) => ({ path: file.path, read: () => readFile(file.absolute) })),
  {
    scanner,
    allowPaths: job.options.paths,
    baseline: new Set(job.baseline),
    imported,
    ...(job.maxBytes === undefined ? {} : { maxBytes: job.maxBytes }),
  },
);
parentPort?.postMessage(outcome);
