import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ImportedSuppressions } from './imported-suppressions.js';
import type { SecretsOptions } from './options.js';
import { emptyScanOutcome, mergeScanOutcome, type ScanOutcome, type ScanTarget, scanTargets } from './scan-targets.js';
import type { WorkerJob } from './scan-worker.js';
import type { SecretScanner } from './scanner.js';

/**
 * Large trees are scanned on every core: files are dealt to worker threads by size, each builds its own scanner, and
 * the masked outcomes are merged. Small sets, and sources that are not plain files on disk, stay on this thread.
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
  /** Applied on this thread; each worker reads the same files itself through `loadScanner`. */
  imported?: ImportedSuppressions;
  /** Default: the number of cores. */
  workers?: number;
  /** Below this many bytes one thread is faster than starting workers. Default 32 MB. */
  minBytes?: number;
  /** Files above this size are skipped with a note (see `scanTargets`). */
  maxBytes?: number;
}

const WORKER_URL = new URL('./scan-worker.js', import.meta.url);

export async function scanDiskTargets(
  targets: readonly DiskTarget[],
  options: ParallelScanOptions,
): Promise<ScanOutcome> {
  const total = targets.reduce((sum, target) => sum + target.size, 0);
  const workers = Math.min(options.workers ?? availableParallelism(), 16);
  // Under a TypeScript test runner the compiled worker does not exist; scanning in-process is then the only way.
  const canSpawn = WORKER_URL.protocol === 'file:' && existsSync(fileURLToPath(WORKER_URL));
  if (workers < 2 || total < (options.minBytes ?? 32_000_000) || !canSpawn || targets.some((target) => target.skip)) {
    return scanTargets(targets, {
      scanner: options.scanner,
      allowPaths: options.options.paths,
      baseline: options.baseline,
      ...(options.imported ? { imported: options.imported } : {}),
      ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
    });
  }
  const shares: Array<{ files: WorkerJob['files']; bytes: number }> = Array.from({ length: workers }, () => ({
    files: [],
    bytes: 0,
  }));
  for (const target of [...targets].sort((a, b) => b.size - a.size)) {
    const lightest = shares.reduce((best, share) => (share.bytes < best.bytes ? share : best));
    lightest.files.push({ path: target.path, absolute: target.absolute });
    lightest.bytes += target.size;
  }
  const outcomes = await Promise.all(
    shares
      .filter((share) => share.files.length > 0)
      .map(
        (share) =>
          new Promise<ScanOutcome>((resolve, reject) => {
            const job: WorkerJob = {
              repoRoot: options.repoRoot,
              options: options.options,
              files: share.files,
              baseline: [...options.baseline],
              ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
            };
            const worker = new Worker(WORKER_URL, { workerData: job });
            worker.once('message', (outcome: ScanOutcome) => resolve(outcome));
            worker.once('error', reject);
            worker.once('exit', (code) => {
              if (code !== 0) reject(new Error(`secret scan worker exited with code ${code}`));
            });
          }),
      ),
  );
  const merged = emptyScanOutcome();
  for (const outcome of outcomes) mergeScanOutcome(merged, outcome);
  merged.findings.sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line || a.column - b.column);
  return merged;
}
