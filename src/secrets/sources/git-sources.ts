import { readFile } from 'node:fs/promises';
import { appendAll } from '../../core/append-all.js';
import { TollgateError } from '../../core/errors.js';
import { runProcess } from '../../core/process.js';
import type { ScanTarget } from '../scan-targets.js';
import { checkGitResult } from './git-result.js';
import { type HistoryOptions, historyTargetBatches } from './history/history-source.js';
import { parsePatch, toRanges } from './parse-patch.js';
import { gitListFiles } from './walk.js';

/**
 * Where `tollgate scan --staged / --all / --history` get their text. Every git call goes through `runProcess`.
 */
export interface GitSourceOptions {
  repoRoot: string;
  env?: NodeJS.ProcessEnv;
}

const BIG_OUTPUT = 1024 * 1024 * 1024;

async function git(options: GitSourceOptions, args: string[], what: string): Promise<string> {
  const result = await runProcess('git', ['-c', 'core.quotePath=false', ...args], {
    cwd: options.repoRoot,
    ...(options.env ? { env: options.env } : {}),
    timeoutMs: 600_000,
    maxOutputBytes: BIG_OUTPUT,
  });
  checkGitResult(result, what);
  if (result.truncated) throw new TollgateError('io', `${what}: git printed more than 1 GiB; scan a smaller range`);
  return result.stdout;
}

/** The bytes git prints (a blob that may be binary, UTF-16 or UTF-32). */
async function gitBytes(options: GitSourceOptions, args: string[], what: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const result = await runProcess('git', args, {
    cwd: options.repoRoot,
    ...(options.env ? { env: options.env } : {}),
    timeoutMs: 600_000,
    // stdout is collected below; the capture keeps stderr for error messages.
    maxOutputBytes: 64 * 1024,
    onOutput: (stream, chunk) => {
      if (stream === 'stdout') chunks.push(chunk);
    },
  });
  checkGitResult(result, what);
  return Buffer.concat(chunks);
}

/**
 * The staged content (the index, not the working tree) of every staged file, reporting only the lines the staged diff
 * adds. A file git calls binary has no lines: its staged bytes are scanned whole (decoded if they are UTF-16/32 text,
 * else for their printable runs). No textconv driver may stand in for the staged bytes.
 */
export async function stagedTargets(options: GitSourceOptions): Promise<ScanTarget[]> {
  const patch = await git(
    options,
    [
      'diff',
      '--cached',
      '-U0',
      '--no-color',
      '--no-ext-diff',
      '--no-textconv',
      '--diff-filter=ACMRT',
      '--find-renames',
    ],
    '--staged',
  );
  const files = parsePatch(patch);
  const blobs = stagedBlobs(
    options,
    files.map((file) => file.path),
  );
  return files.map((file, index) => {
    const read = () => blobs.read(index);
    if (file.binary) return { path: file.path, read };
    const lines = toRanges(file.added.map((item) => item.line));
    return { path: file.path, onlyLines: lines, newLines: lines, read };
  });
}

/**
 * How many staged blobs one `git cat-file --batch` reads: the scan reads this many ahead (scan-targets.ts,
 * `READ_AHEAD`), so two batches hold no more than twice what the scan would have waiting anyway. One git per file
 * cost a commit of 21 files about 7 ms of CPU and 7 ms of wall a file beyond the first, most of it Node's own spawn
 * (docs/benchmarks.md, "`tollgate hook pre-commit`", session 30).
 */
const BLOB_BATCH = 16;

/**
 * The staged bytes of `paths[index]`, read with the files of its block of the list in one `git cat-file --batch`.
 * Each is named as `git cat-file blob` is given it (`indexName`), so both read the same blob; whatever the batch does
 * not answer with a blob (a path its one-line input cannot carry, a name git reports missing, a failed batch) is read
 * alone that way, and fails as it always did.
 */
function stagedBlobs(options: GitSourceOptions, paths: readonly string[]): { read(index: number): Promise<Buffer> } {
  const fetched = new Map<number, Promise<Buffer | undefined>>();
  const alone = (path: string) => gitBytes(options, ['cat-file', 'blob', indexName(path)], `staged ${path}`);
  // Batches are fixed blocks of the list: the scan starts reading the files after the one it waits for (its read
  // ahead) before that one, so a batch from whichever index came first would leave the others to one of their own.
  const fetch = (at: number) => {
    const batch: number[] = [];
    const from = at - (at % BLOB_BATCH);
    for (let index = from; index < Math.min(paths.length, from + BLOB_BATCH); index++)
      if (!fetched.has(index) && batchable(paths[index]!)) batch.push(index);
    const answers = readBatch(
      options,
      batch.map((index) => indexName(paths[index]!)),
    );
    for (const [position, index] of batch.entries())
      fetched.set(
        index,
        answers.then((blobs) => blobs[position]),
      );
  };
  return {
    async read(index) {
      const path = paths[index]!;
      if (!batchable(path)) return alone(path);
      if (!fetched.has(index)) fetch(index);
      const pending = fetched.get(index)!;
      fetched.delete(index); // read once: a second read (redaction's) asks git again, as it did
      return (await pending) ?? alone(path);
    },
  };
}

/**
 * The staged blob's name for git: stage 0 named (`:0:<path>`), since `:<path>` reads a path that starts with a digit
 * and a colon as a stage (`:0:colon.txt` is stage 0 of `colon.txt`), and such a file was skipped as unreadable.
 */
function indexName(path: string): string {
  return `:0:${path}`;
}

/** `git cat-file --batch` takes one name a line, whole: a path with a line break or a CR at its end is read alone. */
function batchable(path: string): boolean {
  return !/[\n\r]/.test(path);
}

const BATCH_HEADER = /^[0-9a-f]{40,64} ([a-z]+) (\d+)$/;

/** Each name's blob from one `git cat-file --batch`, undefined where it answered anything else (or failed). */
async function readBatch(options: GitSourceOptions, names: readonly string[]): Promise<Array<Buffer | undefined>> {
  const none = names.map(() => undefined);
  if (names.length === 0) return none;
  const chunks: Buffer[] = [];
  const result = await runProcess('git', ['cat-file', '--batch'], {
    cwd: options.repoRoot,
    ...(options.env ? { env: options.env } : {}),
    input: `${names.join('\n')}\n`,
    timeoutMs: 600_000,
    // stdout is collected below; the capture keeps stderr.
    maxOutputBytes: 64 * 1024,
    onOutput: (stream, chunk) => {
      if (stream === 'stdout') chunks.push(chunk);
    },
  });
  if (result.exitCode !== 0) return none;
  const out = Buffer.concat(chunks);
  const blobs: Array<Buffer | undefined> = [];
  let at = 0;
  for (let position = 0; position < names.length; position++) {
    const end = out.indexOf(10, at);
    if (end === -1) return none;
    const header = BATCH_HEADER.exec(out.toString('latin1', at, end));
    at = end + 1;
    if (!header) {
      blobs.push(undefined); // `<name> missing`, `<name> ambiguous`: read alone, which says why
      continue;
    }
    const size = Number(header[2]);
    if (at + size >= out.length || out[at + size] !== 10) return none;
    blobs.push(header[1] === 'blob' ? out.subarray(at, at + size) : undefined);
    at += size + 1;
  }
  return blobs;
}

/** Every tracked and untracked-not-ignored file of the work tree, read from disk. */
export async function workTreeTargets(options: GitSourceOptions): Promise<Array<ScanTarget & { absolute: string }>> {
  const files = await gitListFiles(options.repoRoot, options.repoRoot, options.env);
  return files.map((absolute) => ({
    path: absolute.slice(options.repoRoot.length + 1),
    absolute,
    read: () => readFile(absolute),
  }));
}

/** The lines each commit in `range` added, streamed in batches (see `history/history-source.ts`). */
export function historyBatches(options: HistoryOptions): AsyncGenerator<ScanTarget[]> {
  return historyTargetBatches(options);
}

/** Every batch at once, for callers that want a list (small ranges). */
export async function historyTargets(options: GitSourceOptions & { range: string }): Promise<ScanTarget[]> {
  const targets: ScanTarget[] = [];
  for await (const batch of historyBatches(options)) appendAll(targets, batch);
  return targets;
}
