import { TollgateError } from '../../../core/errors.js';
import { runProcess } from '../../../core/process.js';
import type { ScanTarget } from '../../scan-targets.js';
import { checkGitResult } from '../git-result.js';
import { binaryReads } from './binary-blobs.js';
import { asGitResult, blockWritingGit } from './block-writes.js';
import { catFileTargets, joinedReads, OBJECT_MAX_BYTES } from './cat-file-targets.js';
import { CommitListing, type CommitSlice, commitSlices } from './commit-list.js';
import { commitMessageReads } from './commit-messages.js';
import { FlowQueue } from './flow-queue.js';
import { type AddedPiece, type BinaryChange, PatchStream, type RescanFiles } from './patch-stream.js';
import { historyReadingStarts } from './reading-starts.js';

/**
 * `tollgate scan --history <range>`: what every commit in the range added, as scan targets, streamed.
 *
 * git's diffs are most of the cost. By default one `git log -p` walks the range and is parsed as it streams, while
 * the scanner works on the other core: git's CPU is then below `git log -p`'s own (rails v7.2.0..v8.0.0: 1.05 s
 * against 1.25 s), where slices cost more (8 slices: 1.2 s, as each process decodes again the blobs and deltas its
 * neighbours decoded, plus the `git rev-list` that lists them). With `parallel` above 1 the
 * range's commits are listed once (`commit-list.ts`) and cut into slices, and that many `git log -p` run at once, each
 * reading its slice's ids from stdin: faster on a machine with idle cores, dearer in CPU. Reading pauses while enough
 * is queued, so git waits for the scanner rather than memory filling, however long the history. The added and deleted
 * files of commits that may hold a rename are read again afterwards with rename detection (see `logArgs` and
 * `renameSlice`), and files git calls binary are read whole
 * (one `git cat-file --batch`) and decoded as the tree's files are: UTF-16 text is binary to git but not to us, and
 * content that is no text at all is scanned for its printable runs. Last, the message of every commit the log showed
 * (`commit-messages.ts`): a pushed message is as public as its diff.
 */
export interface HistoryOptions {
  repoRoot: string;
  env?: NodeJS.ProcessEnv;
  range: string;
  /**
   * These commits only, each against its parents (`range` is then not read): the gate scans the commits its cache
   * has not seen.
   */
  commits?: readonly string[];
  /** `git log` processes at once, over slices of the commits (at most 4). Default 1: least CPU (see above). */
  parallel?: number;
  signal?: AbortSignal;
}

/** A batch handed on once it holds this many bytes of added text. */
const BATCH_BYTES = 1024 * 1024;

export async function* historyTargetBatches(options: HistoryOptions): AsyncGenerator<ScanTarget[]> {
  if (options.range.startsWith('-'))
    throw new TollgateError(
      'usage',
      `--history: expected a revision range like "main..HEAD", got ${JSON.stringify(options.range)}`,
    );
  const what = `--history ${options.range}`;
  const processes = Math.max(1, Math.min(options.parallel ?? 1, 4));
  const queue = new FlowQueue<ScanTarget[]>();
  const collector = new TargetCollector(queue);
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const passes = new LogPasses(options, queue, collector, stop, what);
  try {
    const inputs = await firstPassInputs(options, processes, what);
    historyReadingStarts();
    yield* passes.run(inputs, processes, false);
    // The added and deleted files of commits that had both, read again with rename detection (see
    // `PatchStreamSink.rescan`): only those paths, when every one is known for sure.
    if (collector.rescans.size > 0 && !options.signal?.aborted)
      yield* passes.run([renameSlice(collector.rescans)], 1, true);
    if (options.signal?.aborted) return;
    // The files git calls binary, then every commit's message, from one `git cat-file`.
    yield* catFileTargets({
      ...options,
      ...joinedReads([binaryReads(collector.binaries), commitMessageReads([...collector.commits])]),
      maxBytes: OBJECT_MAX_BYTES,
      what: '--history: reading binary files and commit messages',
      signal: stop.signal,
    });
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    if (passes.running > 0) {
      // The consumer stopped early: git is told to stop, and read until it does.
      stop.abort();
      queue.resumeAll();
    }
  }
}

/** `git log -p` over slices of commits, a few processes at once, their added lines into one queue. */
class LogPasses {
  private pool: SlicePool | null = null;

  constructor(
    private readonly options: HistoryOptions,
    private readonly queue: FlowQueue<ScanTarget[]>,
    private readonly collector: TargetCollector,
    private readonly stop: AbortController,
    private readonly what: string,
  ) {}

  get running(): number {
    return this.pool?.running ?? 0;
  }

  /** Reads the slices (`renames`: with rename detection, for the commits the first pass left) as the queue drains. */
  async *run(slices: readonly LogInput[], processes: number, renames: boolean): AsyncGenerator<ScanTarget[]> {
    const { queue } = this;
    const pool = new SlicePool(
      slices,
      processes,
      (slice) => this.readSlice(slice, renames),
      () => {
        this.stop.abort();
        queue.resumeAll();
      },
    );
    this.pool = pool;
    pool.onChange = () => queue.poke();
    pool.start();
    yield* queue.drain(() => ({ done: pool.running === 0, failure: pool.failure }));
  }

  private async readSlice(slice: LogInput, renames: boolean): Promise<void> {
    const stream = new PatchStream(
      this.collector,
      renames
        ? { alreadyRead: new Map([...this.collector.rescans].map(([commit, files]) => [commit, files.read])) }
        : {},
    );
    const revisions = 'revisions' in slice ? slice.revisions : null;
    // Fully buffered output: into a pipe git otherwise flushes after every commit, and each of those small writes
    // wakes this process for a read of its own (rails v7.2.0..v8.0.0: half the reads, a tenth less node CPU to read).
    // The first pass's heap in huge pages (most of its page faults gone); the rename pass is a few commits.
    const git = blockWritingGit(
      ['-c', 'core.quotePath=false', ...logArgs(renames, revisions)],
      {
        ...(renames ? literalPathspecs(this.options.env ?? process.env) : (this.options.env ?? process.env)),
        GIT_FLUSH: '0',
      },
      { hugePages: !renames },
    );
    const result = await runProcess(git.command, git.args, {
      cwd: this.options.repoRoot,
      ...(revisions ? {} : { input: (slice as CommitSlice).input }),
      env: git.env,
      timeoutMs: 6 * 3_600_000,
      signal: this.stop.signal,
      // The patch is read from the stream; only git's error text is needed (its first line). The cap holds for stdout
      // too, whose kept head is decoded at the end for nothing: 64 KiB, not a megabyte.
      maxOutputBytes: 64 * 1024,
      outputControl: this.queue.control,
      onOutput: (name, chunk) => {
        if (name === 'stdout') stream.push(chunk);
      },
    });
    if (result.aborted) return;
    checkGitResult(asGitResult(git, result), this.what);
    stream.end();
    this.collector.flush();
  }
}

/**
 * What one `git log` of the first pass reads: a slice of listed commit ids on its stdin, or the range to walk itself.
 */
type LogInput = CommitSlice | { readonly revisions: readonly string[] };

/**
 * The first pass's `git log` inputs. One process walks the range itself, as given: it resolves the range once, so
 * nothing need be pinned first, and listing the commits (`git rev-list`, rails: 0.09 s of CPU) pays only for cutting
 * them into slices. A bad range fails that `git log` with git's own line. Listed commits (`commits`) are read on its
 * stdin.
 */
async function firstPassInputs(options: HistoryOptions, processes: number, what: string): Promise<LogInput[]> {
  if (processes > 1) return commitSlices(await listCommits(options, what), processes);
  if (!options.commits) return [{ revisions: [options.range] }];
  return options.commits.length > 0 ? [listedSlice(options.commits)] : [];
}

/**
 * Every commit to scan, from one walk: the range's (its ends resolved first, so that every slice reads the commits of
 * one moment even if a branch moves meanwhile), or the listed ones.
 */
async function listCommits(options: HistoryOptions, what: string): Promise<CommitListing> {
  const listing = new CommitListing();
  const args = options.commits
    ? ['rev-list', '--no-walk=unsorted', '--stdin']
    : ['rev-list', ...(await rangeEnds(options, what)), '--'];
  const result = await runProcess('git', args, {
    cwd: options.repoRoot,
    ...(options.commits ? { input: `${options.commits.join('\n')}\n` } : {}),
    ...(options.env ? { env: options.env } : {}),
    timeoutMs: 600_000,
    maxOutputBytes: 1024 * 1024,
    ...(options.signal ? { signal: options.signal } : {}),
    onOutput: (name, chunk) => {
      if (name === 'stdout') listing.push(chunk);
    },
  });
  checkGitResult(result, what);
  listing.end();
  return listing;
}

async function rangeEnds(options: HistoryOptions, what: string): Promise<string[]> {
  return (await git(options, ['rev-parse', options.range, '--'], what))
    .split('\n')
    .filter((line) => /^\^?[0-9a-f]{40,64}$/.test(line));
}

/** Runs `read` over the slices, `processes` at a time; the first failure stops the rest (`onFailure`). */
class SlicePool {
  running = 0;
  failure: unknown = null;
  onChange: () => void = () => {};
  private next = 0;

  constructor(
    private readonly slices: readonly LogInput[],
    private readonly processes: number,
    private readonly read: (slice: LogInput) => Promise<void>,
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

/**
 * Added pieces into batches of about `BATCH_BYTES` for the queue; files to read whole, and the commits whose messages
 * are read, noted for afterwards.
 */
class TargetCollector {
  readonly binaries: BinaryChange[] = [];
  /** Every commit the log showed (the rename pass shows some again), in the order shown. */
  readonly commits = new Set<string>();
  /** Commits left to the rename pass, in the order shown, with what the first pass read of each. */
  readonly rescans = new Map<string, RescanFiles>();
  private batch: ScanTarget[] = [];
  private bytes = 0;

  constructor(private readonly queue: FlowQueue<ScanTarget[]>) {}

  // A file's name decides nothing: a `.png` may hold text, and the tree's scan reads it like any other.
  piece(piece: AddedPiece): void {
    this.batch.push(pieceTarget(piece));
    this.bytes += piece.text.length;
    if (this.bytes >= BATCH_BYTES) this.flush();
  }

  binary(change: BinaryChange): void {
    this.binaries.push(change);
  }

  rescan(commit: string, files: RescanFiles): void {
    this.rescans.set(commit, files);
  }

  commit(commit: string): void {
    this.commits.add(commit);
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
  // At hand: scanned without a read's promises, the event loop's turns taken by the scan (see `ScanTarget.content`).
  const read = () => Promise.resolve(text);
  const { path, commit, lineMap } = piece;
  // One object per piece, no spread (thousands of pieces): a piece without a commit has no `commit` key, as before.
  return commit
    ? { path, commit, lineMap, onlyLines: [piece.own], content: text, read }
    : { path, lineMap, onlyLines: [piece.own], content: text, read };
}

/**
 * Every `git log`: `renames` only for the few commits the first pass left (added and deleted files: see
 * `PatchStreamSink.rescan`); `revisions` to walk, or null to read commit ids on stdin (`--no-walk`).
 */
function logArgs(renames: boolean, revisions: readonly string[] | null): string[] {
  return [
    'log',
    '-p',
    '-U0',
    // A merge shows only what differs from every parent: lines its own resolution wrote.
    '--cc',
    // Rename detection costs more than all the rest of a merge's diffs (rails: 0.4 s of 0.6 s; git then diffs each
    // parent in full instead of walking their trees together) and finds little there: without it a file renamed on one
    // side and edited on the other shows the edit's lines as the merge's own too, scanned once more, never fewer. A
    // commit that is no merge shows, in `--raw`, whether it may hold a rename: the few that may are read again with it.
    ...(renames ? ['--find-renames'] : ['--no-renames', '--raw']),
    // Object ids in full (`index` and `--raw` lines, which nothing here reads): an abbreviated one is looked up in the
    // object store to be sure it is unique, for every file of every commit (rails: 5 % of git's CPU).
    '--full-index',
    '--no-abbrev',
    '--no-color',
    '--no-ext-diff',
    '--no-textconv',
    '--format=%x00commit %H',
    ...(revisions ?? ['--no-walk=unsorted', '--stdin']),
    '--',
  ];
}

/**
 * The rename pass's input: its commits, then (after `--`, which `git log --stdin` reads as the start of pathspecs) the
 * paths of every file they left, when each is known for sure. A path another of these commits modified is shown for
 * that commit too, and passed over there (`PatchStreamOptions.alreadyRead`); rename detection pairs only the added and
 * deleted files of a commit, and every one of those is in the list.
 */
export function renameSlice(rescans: ReadonlyMap<string, RescanFiles>): CommitSlice {
  const commits = [...rescans.keys()];
  const paths = new Set<string>();
  for (const files of rescans.values()) {
    if (files.left === null) return listedSlice(commits);
    for (const path of files.left) paths.add(path);
  }
  if (paths.size === 0) return listedSlice(commits);
  return { input: Buffer.from(`${commits.join('\n')}\n--\n${[...paths].join('\n')}\n`), commits: commits.length };
}

/**
 * `env` for a git whose pathspecs are paths, never patterns or magic. git refuses `--literal-pathspecs` beside a
 * caller's `GIT_GLOB_PATHSPECS` or `GIT_ICASE_PATHSPECS` (and a case-blind match is not the path): those are dropped.
 */
function literalPathspecs(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { GIT_GLOB_PATHSPECS, GIT_NOGLOB_PATHSPECS, GIT_ICASE_PATHSPECS, ...rest } = env;
  return { ...rest, GIT_LITERAL_PATHSPECS: '1' };
}

/** Listed commit ids as one slice, for `git log --no-walk=unsorted --stdin`. */
function listedSlice(commits: readonly string[]): CommitSlice {
  return { input: Buffer.from(`${commits.join('\n')}\n`), commits: commits.length };
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
