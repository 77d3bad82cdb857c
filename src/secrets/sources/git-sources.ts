import { readFile } from 'node:fs/promises';
import { appendAll } from '../../core/append-all.js';
import { TollgateError } from '../../core/errors.js';
import { runProcess } from '../../core/process.js';
import type { ScanTarget } from '../scan-targets.js';
import { checkGitResult } from './git-result.js';
import { type HistoryOptions, historyTargetBatches } from './history/history-source.js';
import { parsePatch, toRanges } from './parse-patch.js';
import { stagedBlobs } from './staged-blobs.js';
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
