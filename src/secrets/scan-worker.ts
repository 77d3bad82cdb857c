import { readFile } from 'node:fs/promises';
import { type MessagePort, parentPort } from 'node:worker_threads';
import { type QueuedFile, scanQueue } from './disk-queue.js';
import { type ImportedSuppressions, NO_IMPORTED_SUPPRESSIONS } from './imported-match.js';
import { buildScanner, type ScannerRules } from './scanner-rules.js';

/**
 * A worker thread of `parallel-scan.ts`. It is started before the scan's config is loaded, so it loads this bundle
 * meanwhile; then it gets its job (the rules the main thread built its scanner from, as data, the imported
 * suppressions and the baseline) and builds its own scanner (rule functions cannot cross threads), while the files are
 * listed; then it takes its share of the files from the shared queue (`WorkerFiles`, posted once the list is known)
 * until the queue is empty, and posts back one outcome, which holds masked findings only.
 */
export interface WorkerJob {
  repoRoot: string;
  /** The main thread's, from the config it read and checked: the worker reads no config file and loads no parser. */
  rules: ScannerRules;
  imported?: ImportedSuppressions;
  baseline: string[];
  baselineLabel?: string;
  reportRejected?: boolean;
}

/** The files to scan, largest first, and the queue's claim counter (a BigInt64Array's buffer, `claimIndex`). */
export interface WorkerFiles {
  files: QueuedFile[];
  claim: SharedArrayBuffer;
}

/**
 * The next `count` messages, each as it arrives: one listener from the start, so none is missed while this thread is
 * busy, let go after the last, so the thread can end.
 */
function nextMessages(port: MessagePort, count: number): Array<Promise<unknown>> {
  const settle: Array<(message: unknown) => void> = [];
  const messages = Array.from({ length: count }, () => new Promise<unknown>((resolve) => settle.push(resolve)));
  let received = 0;
  const take = (message: unknown): void => {
    settle[received++]!(message);
    if (received === count) port.off('message', take);
  };
  port.on('message', take);
  return messages;
}

/**
 * No top-level await: the bundle is CommonJS (`scan-worker.cjs`, scripts/bundle-lib.mjs), which a worker loads without
 * Node's ES module loader (see `WORKER_URL` in `parallel-scan.ts`).
 */
async function work(port: MessagePort): Promise<void> {
  const [jobMessage, filesMessage] = nextMessages(port, 2);
  const job = (await jobMessage) as WorkerJob;
  const scanner = buildScanner(job.rules);
  const queue = (await filesMessage) as WorkerFiles;
  const outcome = scanQueue(
    queue.files,
    new BigInt64Array(queue.claim),
    {
      scanner,
      baseline: new Set(job.baseline),
      imported: job.imported ?? NO_IMPORTED_SUPPRESSIONS,
      ...(job.reportRejected ? { reportRejected: true } : {}),
      ...(job.baselineLabel === undefined ? {} : { baselineLabel: job.baselineLabel }),
    },
    (file) => () => readFile(file.absolute),
    job.repoRoot,
  );
  port.postMessage(outcome);
}

void work(parentPort!);
