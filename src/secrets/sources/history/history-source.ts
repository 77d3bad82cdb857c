import { availableParallelism } from 'node:os';
import { TollgateError } from '../../../core/errors.js';
import { runProcess } from '../../../core/process.js';
import { hasBinaryExtension } from '../../binary.js';
import type { ScanTarget } from '../../scan-targets.js';
import { checkGitResult } from '../git-result.js';
import { binaryTargets } from './binary-blobs.js';
import { FlowQueue } from './flow-queue.js';
import { type AddedPiece, type BinaryChange, PatchStream } from './patch-stream.js';

/**
 * `tollgate scan --history <range>`: what every commit in the range added, as scan targets, streamed.
 *
 * git's diffs are most of the cost, and one `git log -p` uses one core: the range's commits are counted and cut into
 * slices (`--skip`/`--max-count`), and a few `git log -p` run at once, each parsed as it streams. Reading pauses while
 * enough is queued, so git waits for the scanner rather than memory filling, however long the history. Files git
 * calls binary are read whole afterwards (one `git cat-file --batch`): UTF-16 text is binary to git but not to us.
 */
export interface HistoryOptions {
  repoRoot: string;
  env?: NodeJS.ProcessEnv;
  range: string;
  /** git processes at once. Default: the number of cores, at most 4. */
  parallel?: number;
  signal?: AbortSignal;
}

/** Fewer commits than this per slice are not worth another process. */
const MIN_SLICE = 100;
/** Slices per process: a few, so that one slice of big commits does not leave the other cores idle at the end. */
const SLICES_PER_PROCESS = 2;
/** A batch handed on once it holds this many bytes of added text. */
const BATCH_BYTES = 1024 * 1024;

export async function* historyTargetBatches(options: HistoryOptions): AsyncGenerator<ScanTarget[]> {
  if (options.range.startsWith('-'))
    throw new TollgateError(
      'usage',
      `--history: expected a revision range like "main..HEAD", got ${JSON.stringify(options.range)}`,
    );
  const what = `--history ${options.range}`;
  const count = Number((await git(options, ['rev-list', '--count', options.range, '--'], what)).trim());
  const processes = Math.max(1, Math.min(options.parallel ?? availableParallelism(), 4));
  const slices = sliceCommits(count, processes);

  const queue = new FlowQueue<ScanTarget[]>();
  let batch: ScanTarget[] = [];
  let batchBytes = 0;
  const binaries: BinaryChange[] = [];
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });

  const flush = () => {
    if (batch.length === 0) return;
    queue.push(batch, batchBytes);
    batch = [];
    batchBytes = 0;
  };
  const sink = {
    piece(piece: AddedPiece) {
      if (hasBinaryExtension(piece.path)) return;
      batch.push(pieceTarget(piece));
      batchBytes += piece.text.length;
      if (batchBytes >= BATCH_BYTES) flush();
    },
    binary(change: BinaryChange) {
      if (!hasBinaryExtension(change.path)) binaries.push(change);
    },
  };

  let failure: unknown = null;
  let running = 0;
  let next = 0;
  const runSlice = async (slice: { skip: number; max: number }) => {
    const stream = new PatchStream(sink);
    const result = await runProcess('git', ['-c', 'core.quotePath=false', ...logArgs(slice), options.range, '--'], {
      cwd: options.repoRoot,
      ...(options.env ? { env: options.env } : {}),
      timeoutMs: 6 * 3_600_000,
      signal: stop.signal,
      // The patch is read from the stream; only git's error text is kept.
      maxOutputBytes: 1024 * 1024,
      outputControl: queue.control,
      onOutput: (name, chunk) => {
        if (name === 'stdout') stream.push(chunk);
      },
    });
    if (result.aborted) return;
    checkGitResult(result, what);
    stream.end();
    flush();
  };
  const startMore = () => {
    while (failure === null && running < processes && next < slices.length) {
      const slice = slices[next++]!;
      running++;
      runSlice(slice).then(
        () => {
          running--;
          startMore();
          queue.poke();
        },
        (error: unknown) => {
          running--;
          failure ??= error;
          stop.abort();
          queue.resumeAll();
          queue.poke();
        },
      );
    }
  };

  try {
    startMore();
    for (;;) {
      const targets = queue.shift();
      if (targets !== undefined) {
        yield targets;
        continue;
      }
      if (failure !== null) throw failure;
      if (running === 0) break;
      await queue.waitForMore();
    }
    if (options.signal?.aborted) return;
    yield* binaryTargets({ ...options, changes: binaries, signal: stop.signal });
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    if (running > 0) {
      // The consumer stopped early: git is told to stop, and read until it does.
      stop.abort();
      queue.resumeAll();
    }
  }
}

function pieceTarget(piece: AddedPiece): ScanTarget {
  const text = piece.text;
  return {
    path: piece.path,
    ...(piece.commit ? { commit: piece.commit } : {}),
    lineMap: piece.lineMap,
    onlyLines: [piece.own],
    read: () => throughEventLoop(text),
  };
}

let lastTurn = 0;

/**
 * Every few milliseconds a read goes through the event loop rather than a microtask: git's output is then read between
 * one target's scan and the next, so git keeps writing while we scan instead of waiting on a full pipe.
 */
function throughEventLoop(text: string): Promise<string> {
  const now = performance.now();
  if (now - lastTurn < 2) return Promise.resolve(text);
  lastTurn = now;
  return new Promise((resolve) => setImmediate(resolve, text));
}

/** Commits per slice: one slice for short ranges, else a few per process. */
export function sliceCommits(count: number, processes: number): Array<{ skip: number; max: number }> {
  if (count <= 0) return [];
  const wanted = Math.min(processes * SLICES_PER_PROCESS, Math.ceil(count / MIN_SLICE));
  const size = Math.ceil(count / Math.max(1, wanted));
  const slices: Array<{ skip: number; max: number }> = [];
  for (let skip = 0; skip < count; skip += size) slices.push({ skip, max: Math.min(size, count - skip) });
  return slices;
}

function logArgs(slice: { skip: number; max: number }): string[] {
  return [
    'log',
    '-p',
    '-U0',
    // A merge shows only what differs from every parent: lines its own resolution wrote.
    '--cc',
    '--no-color',
    '--no-ext-diff',
    '--no-textconv',
    // No --diff-filter: with one, git drops commits whose changes it filters out before --skip counts, and the
    // slices would overlap.
    '--format=%x00commit %H',
    `--skip=${slice.skip}`,
    `--max-count=${slice.max}`,
  ];
}

async function git(options: HistoryOptions, args: string[], what: string): Promise<string> {
  const result = await runProcess('git', ['-c', 'core.quotePath=false', ...args], {
    cwd: options.repoRoot,
    ...(options.env ? { env: options.env } : {}),
    timeoutMs: 600_000,
    maxOutputBytes: 64 * 1024 * 1024,
  });
  checkGitResult(result, what);
  return result.stdout;
}
