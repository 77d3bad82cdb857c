import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { compareText } from '../core/text-order.js';
import { type QueuedFile, scanQueue } from './disk-queue.js';
import type { ImportedSuppressions } from './imported-match.js';
import { MAX_SCAN_THREADS, type SecretsOptions } from './options.js';
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
import type { WorkerFiles, WorkerJob } from './scan-worker.js';
import type { SecretScanner } from './scanner.js';
import type { ScannerRules } from './scanner-rules.js';

/**
 * Files on disk (`tollgate scan PATHS`, `--all`) are scanned by this thread and, when there is enough work to pay for
 * starting them, by worker threads beside it: all take files from one shared queue (see `disk-queue.ts`). Each file is
 * scanned whole by one thread, so the findings are the same for any number of threads.
 */
export interface DiskTarget extends ScanTarget {
  readonly absolute: string;
  /** Bytes when listed; for an unchecked file, what git's index says (see `QueuedFile`). */
  readonly size: number;
  readonly unchecked?: true;
}

export interface ParallelScanOptions {
  repoRoot: string;
  options: SecretsOptions;
  scanner: SecretScanner;
  /** What `scanner` was built from (`loadScanner`): each worker builds its own from it. */
  rules: ScannerRules;
  baseline: ReadonlySet<string>;
  baselineLabel?: string;
  /** Applied on every thread: each worker is sent them. */
  imported?: ImportedSuppressions;
  /** Scanning threads, this one included, exactly (`TOLLGATE_SCAN_THREADS`: the tests and the bench set it). */
  threads?: number;
  /** At most this many scanning threads (`--max-threads`, config `secrets.maxThreads`); `threads` wins over it. */
  maxThreads?: number;
  /** Keep the candidates a provider rule rejected (`--report-allowed`). */
  reportRejected?: boolean;
}

/**
 * Bytes each extra thread must have to scan before it pays for itself. A worker spends 0.2 to 0.3 s of CPU starting
 * (measured under load, 2026-12-04: its module load, the garbage collection of a fresh heap, its rules), in
 * which this thread scans 15 to 20 MB of library code, and the second isolate compiles the scanner again; while both
 * threads stream bytes each runs slower. On a quiet machine a second thread cost wall time on the npm corpus's first
 * 24, 48 and 102 MB and saved some on its first 160 MB (docs/benchmarks.md): with less than this much to share, it
 * would only have cost the CPU and 100-130 MiB. A faster scanner needs a larger figure: measure with
 * `node bench/scale.mjs threads` (its 30 MB row) and paired runs on larger slices.
 */
export const BYTES_PER_THREAD = 128_000_000;

/**
 * The bundles are CommonJS (`.cjs`) and start the worker's CommonJS bundle, which Node loads without its ES module
 * loader: started as an ES module, each worker compiled that loader and, through its facades of `node:fs` and
 * `node:crypto`, their promise, watcher, readline and Web Crypto modules, all from source under the scan's V8 flags
 * (10-15 ms of CPU a worker, docs/benchmarks.md, session 31). The build's own modules (`dist/`) start `scan-worker.js`.
 */
const WORKER_URL = new URL(
  import.meta.url.endsWith('.cjs') ? './scan-worker.cjs' : './scan-worker.js',
  import.meta.url,
);

/** What the workers need from the config, sent once it is loaded (`ScanWorkers.post`). */
export type WorkerSetup = Omit<ParallelScanOptions, 'scanner'>;

/**
 * The worker threads of one scan of files on disk. They are started before the config is loaded, each as soon as the
 * bytes listed so far pay for it (`listed`; git's list arrives while the config loads), so that a worker loads its
 * bundle (0.22-0.24 s of CPU before its first file, load 4) while this thread loads the config and builds its rules:
 * started after them, its first file came 0.1 s after this thread's (docs/benchmarks.md). Each gets its job once the
 * config is loaded (`post`), which may end workers its cap (`secrets.maxThreads`) does not allow, and the queue once
 * the list is known (`scan`). Only more bytes can be listed, so a worker started early is one the whole list pays for
 * too.
 */
export class ScanWorkers {
  private workers: StartedWorker[] = [];
  private listedBytes = 0;
  /** The bytes listed at which the count of workers can next change. */
  private growAt = 0;
  private job: WorkerJob | null = null;
  private choice: ThreadChoice;
  private readonly cores: number;
  private readonly start: () => StartedWorker;

  /**
   * `choice`: what is known before the config (`--max-threads`, `TOLLGATE_SCAN_THREADS`); `cores`: this machine's, 0
   * where no worker can start; `start` is the tests' stand-in for a thread.
   */
  constructor(choice: ThreadChoice, cores = spawnableCores(), start: () => StartedWorker = () => startWorker()) {
    this.choice = choice;
    this.cores = cores;
    this.start = start;
    // An exact count (TOLLGATE_SCAN_THREADS) needs no bytes to decide: its workers start at once.
    this.grow(0);
  }

  /** Workers started so far (and not ended by the config's cap). */
  get count(): number {
    return this.workers.length;
  }

  /**
   * The listing found a file of `size` bytes to scan. Called once per file: asking `grow` only when the bytes reach
   * the next `BYTES_PER_THREAD` keeps this small, which V8 compiles with every call it inlines (the worker's start
   * among them, 20-90 ms of a compile thread's time).
   */
  listed(size: number): void {
    this.listedBytes += size;
    if (this.listedBytes >= this.growAt) this.grow(this.listedBytes);
  }

  /** Starts the workers `bytes` pay for beyond those started already. */
  grow(bytes: number): void {
    // The count changes with the bytes only as they pass a multiple of BYTES_PER_THREAD (`defaultThreads`).
    this.growAt = (Math.floor(bytes / BYTES_PER_THREAD) + 1) * BYTES_PER_THREAD;
    if (this.cores === 0) return;
    const wanted = chooseThreads(bytes, this.choice, this.cores) - 1;
    while (this.workers.length < wanted) {
      const started = this.start();
      if (this.job) started.worker.postMessage(this.job);
      this.workers.push(started);
    }
  }

  /** The config is loaded: ends the workers its cap leaves out, and sends the others (and any started later) the job. */
  post(setup: WorkerSetup): void {
    this.choice = setup;
    this.job = {
      repoRoot: setup.repoRoot,
      rules: setup.rules,
      ...(setup.imported ? { imported: setup.imported } : {}),
      baseline: [...setup.baseline],
      ...(setup.reportRejected ? { reportRejected: true } : {}),
      ...(setup.baselineLabel === undefined ? {} : { baselineLabel: setup.baselineLabel }),
    };
    const allowed = Math.max(0, chooseThreads(this.listedBytes, setup, this.cores) - 1);
    for (const { worker } of this.workers.slice(allowed)) void worker.terminate();
    this.workers = this.workers.slice(0, allowed);
    for (const { worker } of this.workers) worker.postMessage(this.job);
  }

  /** Gives every worker the queue (files largest first, and its claim counter); resolves to their outcomes. */
  scan(files: readonly QueuedFile[], claim: SharedArrayBuffer): Promise<ScanOutcome[]> {
    const queue: WorkerFiles = {
      files: files.map(({ path, absolute, size, unchecked }) => ({
        path,
        absolute,
        size,
        ...(unchecked ? { unchecked } : {}),
      })),
      claim,
    };
    for (const { worker } of this.workers) {
      worker.ref();
      worker.postMessage(queue);
    }
    return Promise.all(this.workers.map(({ outcome }) => outcome));
  }

  /** Ends every worker (the config, the rules or the listing failed). */
  stop(): void {
    for (const { worker } of this.workers) void worker.terminate();
    this.workers = [];
  }
}

export interface StartedWorker {
  worker: Pick<Worker, 'ref' | 'postMessage' | 'terminate'>;
  outcome: Promise<ScanOutcome>;
}

/** Scans `targets` on this thread and on `workers`, which have been sent their job (`ScanWorkers.post`). */
export async function scanDiskTargets(
  targets: readonly DiskTarget[],
  options: ParallelScanOptions,
  workers: ScanWorkers,
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
  // Largest first: every worker starts on a large file, and what is left at the end is smaller files, which spread
  // evenly, rather than one large file on one thread while the others wait. This thread takes the small end
  // (`scanQueue`'s `fromBack`) when workers share the queue: they meet in the middle, so the last files are those
  // where they meet (under 0.6 MB on the npm corpus), and a queue of two large files and few bytes besides can end
  // with this thread on the second while a worker is done (at most that file's time).
  queue.sort((a, b) => b.size - a.size || compareText(a.path, b.path));
  workers.grow(queue.reduce((sum, file) => sum + file.size, 0));
  const claim = new BigInt64Array(new SharedArrayBuffer(8));
  const shares = workers.count > 0 ? workers.scan(queue, claim.buffer as SharedArrayBuffer) : Promise.resolve([]);
  // This thread works the same queue while the workers start; it blocks its event loop until the queue is empty,
  // which nothing else in a scan needs meanwhile.
  const fromBack = workers.count > 0;
  const own = scanQueue(queue, claim, scanOptions, (file) => () => file.read(), options.repoRoot, fromBack);
  const merged = emptyScanOutcome();
  for (const outcome of [notRead, own, ...(await shares)]) mergeScanOutcome(merged, outcome);
  sortOutcome(merged);
  return merged;
}

/** This machine's cores where workers can start, else 0 (none can). */
function spawnableCores(): number {
  // Under a TypeScript test runner the compiled worker does not exist; scanning in-process is then the only way.
  const canSpawn = WORKER_URL.protocol === 'file:' && existsSync(fileURLToPath(WORKER_URL));
  return canSpawn ? availableParallelism() : 0;
}

export type ThreadChoice = Pick<ParallelScanOptions, 'threads' | 'maxThreads'>;

/** `threads` when given (up to `MAX_SCAN_THREADS`); else `defaultThreads`, at most `maxThreads`. */
export function chooseThreads(bytes: number, choice: ThreadChoice, cores: number): number {
  if (choice.threads !== undefined) return Math.max(1, Math.min(choice.threads, MAX_SCAN_THREADS));
  return Math.max(1, Math.min(defaultThreads(bytes, cores), choice.maxThreads ?? MAX_SCAN_THREADS));
}

/**
 * One thread per core (up to `MAX_SCAN_THREADS`), as many as the bytes pay for: this one, and a worker for each
 * further `BYTES_PER_THREAD`. The load average does not decide: it counts every runnable process on the machine, so on
 * a shared one it kept every scan on one thread however much it had to scan; whoever wants to leave cores to other
 * work caps the threads (`--max-threads`, config `secrets.maxThreads`).
 */
export function defaultThreads(bytes: number, cores: number): number {
  return Math.max(1, Math.min(cores, MAX_SCAN_THREADS, Math.floor(bytes / BYTES_PER_THREAD) + 1));
}

/**
 * A worker that loads its bundle at once, builds its scanner when it gets the job and scans when it gets the queue.
 * Unreferenced until then, so a config or a listing that fails leaves no thread keeping the process alive; a failure
 * before it is given files is kept for `scan` to report.
 * Its one message is its whole outcome: the scan goes on when it arrives, not when the thread has exited, since tearing
 * down a worker's heap took 0.1 to 0.7 s of wall time (`bench/thread-timeline.mjs`), which the report's rendering
 * can overlap. `script` is the tests' stand-in for the scan worker.
 */
export function startWorker(script: URL = WORKER_URL): StartedWorker {
  const worker = new Worker(script);
  worker.unref();
  const outcome = new Promise<ScanOutcome>((resolve, reject) => {
    worker.once('message', (message: ScanOutcome) => {
      worker.unref();
      resolve(message);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      // After the outcome this settles nothing; before it, the worker ended without finishing its files.
      reject(new Error(`secret scan worker exited with code ${code} before it finished its files`));
    });
  });
  outcome.catch(() => undefined);
  return { worker, outcome };
}
