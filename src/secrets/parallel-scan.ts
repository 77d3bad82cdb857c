import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type QueuedFile, scanQueue } from './disk-queue.js';
import type { ImportedSuppressions } from './imported-suppressions.js';
import type { SecretsOptions } from './options.js';
import {
  allowedPaths,
  emptyScanOutcome,
  mergeScanOutcome,
  type ScanOutcome,
  type ScanTarget,
  type ScanTargetsOptions,
  skipBeforeReading,
  sortOutcome,
} from './scan-targets.js';
import type { WorkerJob } from './scan-worker.js';
import type { SecretScanner } from './scanner.js';

/**
 * Files on disk (`tollgate scan PATHS`, `--all`) are scanned by this thread and, when there is enough work to pay for
 * starting them, by worker threads beside it: all take files from one shared queue (see `disk-queue.ts`). Each file is
 * scanned whole by one thread, so the findings are the same for any number of threads.
 */
export interface DiskTarget extends ScanTarget {
  readonly absolute: string;
  readonly size: number;
}

export interface ParallelScanOptions {
  repoRoot: string;
  options: SecretsOptions;
  scanner: SecretScanner;
  baseline: ReadonlySet<string>;
  baselineLabel?: string;
  /** Applied on this thread; each worker reads the same files itself through `loadScanner`. */
  imported?: ImportedSuppressions;
  /** Scanning threads, this one included; default: one per core, fewer for small trees. Tests and the bench set it. */
  threads?: number;
  /** Keep the candidates a provider rule rejected (`--report-allowed`). */
  reportRejected?: boolean;
}

/**
 * Bytes each extra thread must have to scan before it pays for itself: a worker spends about 0.1 s of CPU starting
 * (its own module load and rule compilation), which is what one thread scans of this much text.
 */
const BYTES_PER_THREAD = 24_000_000;
const MAX_THREADS = 16;

const WORKER_URL = new URL('./scan-worker.js', import.meta.url);

export async function scanDiskTargets(
  targets: readonly DiskTarget[],
  options: ParallelScanOptions,
): Promise<ScanOutcome> {
  const scanOptions: ScanTargetsOptions = {
    scanner: options.scanner,
    baseline: options.baseline,
    ...(options.baselineLabel === undefined ? {} : { baselineLabel: options.baselineLabel }),
    ...(options.imported ? { imported: options.imported } : {}),
    ...(options.reportRejected ? { reportRejected: true } : {}),
  };
  const allowed = allowedPaths({ ...scanOptions, allowPaths: options.options.paths });
  const notRead = emptyScanOutcome();
  // The targets themselves are the queue: no copy and no look-up table per file, which a tree of 150,000 files pays
  // for in memory. Workers get plain copies (a function cannot cross threads), made only when any start.
  const queue: DiskTarget[] = [];
  for (const target of targets) {
    const skip = skipBeforeReading(target, allowed);
    if (skip) notRead.skipped.push(skip);
    else queue.push(target);
  }
  queue.sort((a, b) => b.size - a.size || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const total = queue.reduce((sum, file) => sum + file.size, 0);
  const claim = new Int32Array(new SharedArrayBuffer(4));
  const extraThreads = threadCount(total, options.threads) - 1;
  const files: QueuedFile[] =
    extraThreads > 0 ? queue.map(({ path, absolute, size }) => ({ path, absolute, size })) : [];
  const workers = Array.from({ length: extraThreads }, () =>
    startWorker({
      repoRoot: options.repoRoot,
      options: options.options,
      files,
      claim: claim.buffer as SharedArrayBuffer,
      baseline: [...options.baseline],
      ...(options.reportRejected ? { reportRejected: true } : {}),
      ...(options.baselineLabel === undefined ? {} : { baselineLabel: options.baselineLabel }),
    }),
  );
  // This thread works the same queue while the workers start; it blocks its event loop until the queue is empty,
  // which nothing else in a scan needs meanwhile.
  const own = scanQueue(queue, claim, scanOptions, (file) => () => file.read());
  const merged = emptyScanOutcome();
  for (const outcome of [notRead, own, ...(await Promise.all(workers))]) mergeScanOutcome(merged, outcome);
  sortOutcome(merged);
  return merged;
}

/** `threads` when given; else `defaultThreads`, and one where workers cannot start. */
function threadCount(bytes: number, threads: number | undefined): number {
  // Under a TypeScript test runner the compiled worker does not exist; scanning in-process is then the only way.
  const canSpawn = WORKER_URL.protocol === 'file:' && existsSync(fileURLToPath(WORKER_URL));
  if (!canSpawn) return 1;
  if (threads !== undefined) return Math.max(1, Math.min(threads, MAX_THREADS));
  return defaultThreads(bytes, availableParallelism(), loadavg()[0] ?? 0);
}

/**
 * One thread per core that is idle, as many as the bytes pay for. A worker only helps on a core nothing else wants:
 * on a busy machine (load 8 on 2 cores) workers made a scan 1.47x slower and always cost 100-130 MiB more, so the
 * cores the last minute's load average keeps busy are not counted (this thread always runs).
 */
export function defaultThreads(bytes: number, cores: number, load: number): number {
  const idle = Math.max(1, Math.floor(cores - load + 0.5));
  return Math.max(1, Math.min(idle, MAX_THREADS, Math.floor(bytes / BYTES_PER_THREAD) + 1));
}

function startWorker(job: WorkerJob): Promise<ScanOutcome> {
  return new Promise<ScanOutcome>((resolve, reject) => {
    const worker = new Worker(WORKER_URL, { workerData: job });
    let outcome: ScanOutcome | undefined;
    worker.once('message', (message: ScanOutcome) => {
      outcome = message;
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code === 0 && outcome) resolve(outcome);
      else reject(new Error(`secret scan worker exited with code ${code} before it finished its files`));
    });
  });
}
