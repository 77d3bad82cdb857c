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
  /**
   * These commits only, each against its parents (`range` is then not read): the gate scans the commits its cache
   * has not seen. Read from stdin with `--no-walk`, in slices of at most `MAX_LISTED` per process.
   */
  commits?: readonly string[];
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
  const processes = Math.max(1, Math.min(options.parallel ?? availableParallelism(), 4));
  const { revs, slices } = options.commits
    ? { revs: [], slices: listedSlices(options.commits, processes) }
    : await rangeSlices(options, what, processes);
  const queue = new FlowQueue<ScanTarget[]>();
  const collector = new TargetCollector(queue);
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const readSlice = async (slice: Slice) => {
    const stream = new PatchStream(collector);
    const revArgs = slice.commits ? ['--no-walk', '--stdin'] : revs;
    const result = await runProcess('git', ['-c', 'core.quotePath=false', ...logArgs(slice), ...revArgs, '--'], {
      cwd: options.repoRoot,
      ...(slice.commits ? { input: `${slice.commits.join('\n')}\n` } : {}),
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
    collector.flush();
  };
  const pool = new SlicePool(slices, processes, readSlice, () => {
    stop.abort();
    queue.resumeAll();
  });
  pool.onChange = () => queue.poke();
  try {
    pool.start();
    yield* queue.drain(() => ({ done: pool.running === 0, failure: pool.failure }));
    if (options.signal?.aborted) return;
    yield* binaryTargets({ ...options, changes: collector.binaries, signal: stop.signal });
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    if (pool.running > 0) {
      // The consumer stopped early: git is told to stop, and read until it does.
      stop.abort();
      queue.resumeAll();
    }
  }
}

interface Slice {
  skip: number;
  max: number;
  /** Listed commits (`--no-walk --stdin`) instead of a window of the range. */
  commits?: readonly string[];
}

/** At most this many listed commits per `git log --no-walk`. */
const MAX_LISTED = 500;

/** The range's ends as commit ids, so every slice walks the same commits even if a branch moves meanwhile. */
async function rangeSlices(options: HistoryOptions, what: string, processes: number) {
  const revs = (await git(options, ['rev-parse', options.range, '--'], what))
    .split('\n')
    .filter((line) => /^\^?[0-9a-f]{40,64}$/.test(line));
  const count = Number((await git(options, ['rev-list', '--count', ...revs, '--'], what)).trim());
  return { revs, slices: sliceCommits(count, processes) };
}

function listedSlices(commits: readonly string[], processes: number): Slice[] {
  const size = Math.min(MAX_LISTED, Math.max(MIN_SLICE, Math.ceil(commits.length / (processes * SLICES_PER_PROCESS))));
  const slices: Slice[] = [];
  for (let start = 0; start < commits.length; start += size) {
    const part = commits.slice(start, start + size);
    slices.push({ skip: 0, max: part.length, commits: part });
  }
  return slices;
}

/** Runs `read` over the slices, `processes` at a time; the first failure stops the rest (`onFailure`). */
class SlicePool {
  running = 0;
  failure: unknown = null;
  onChange: () => void = () => {};
  private next = 0;

  constructor(
    private readonly slices: readonly Slice[],
    private readonly processes: number,
    private readonly read: (slice: Slice) => Promise<void>,
    private readonly onFailure: () => void,
  ) {}

  start(): void {
    while (this.failure === null && this.running < this.processes && this.next < this.slices.length) {
      const slice = this.slices[this.next++]!;
      this.running++;
      this.read(slice).then(
        () => {
          this.running--;
          this.start();
          this.onChange();
        },
        (error: unknown) => {
          this.running--;
          this.failure ??= error;
          this.onFailure();
          this.onChange();
        },
      );
    }
  }
}

/** Added pieces into batches of about `BATCH_BYTES` for the queue; binary files noted for afterwards. */
class TargetCollector {
  readonly binaries: BinaryChange[] = [];
  private batch: ScanTarget[] = [];
  private bytes = 0;

  constructor(private readonly queue: FlowQueue<ScanTarget[]>) {}

  piece(piece: AddedPiece): void {
    if (hasBinaryExtension(piece.path)) return;
    this.batch.push(pieceTarget(piece));
    this.bytes += piece.text.length;
    if (this.bytes >= BATCH_BYTES) this.flush();
  }

  binary(change: BinaryChange): void {
    if (!hasBinaryExtension(change.path)) this.binaries.push(change);
  }

  flush(): void {
    if (this.batch.length === 0) return;
    this.queue.push(this.batch, this.bytes);
    this.batch = [];
    this.bytes = 0;
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
export function sliceCommits(count: number, processes: number): Slice[] {
  if (count <= 0) return [];
  const wanted = Math.min(processes * SLICES_PER_PROCESS, Math.ceil(count / MIN_SLICE));
  const size = Math.ceil(count / Math.max(1, wanted));
  const slices: Slice[] = [];
  for (let skip = 0; skip < count; skip += size) slices.push({ skip, max: Math.min(size, count - skip) });
  return slices;
}

function logArgs(slice: Slice): string[] {
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
