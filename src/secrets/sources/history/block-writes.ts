import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fixedGitEnv } from '../../../core/change-set/snapshot-git-config.js';
import { keptHeapEnv } from '../../../core/kept-heap-env.js';
import type { ProcessResult } from '../../../core/process.js';

/**
 * A long-running git whose output tollgate streams, told to write it in large blocks. Into a pipe, git's stdio writes
 * 4 KiB at a time, and each write wakes this process for one read through Node's stream machinery: rails
 * v7.2.0..v8.0.0's 5.4 MB of patch came in 900-1,300 reads that cost Node 0.25-0.35 s of CPU, against 0.07 s for
 * the same bytes in 90 reads of 256 KiB. coreutils' `stdbuf -o` sets the size of git's stdout buffer (a preloaded
 * library calls `setvbuf`); git's output is byte for byte the same. Where there is no `stdbuf` (macOS, BusyBox),
 * git runs as before.
 */
export interface GitCommand {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

/** stdout's buffer: a few reads of the pipe per write, few enough writes that the reader rarely wakes. */
const BLOCK = '256K';

export function blockWritingGit(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  { hugePages = false } = {},
): GitCommand {
  const stdbuf = stdbufPath(env);
  // A long pass's allocator keeps what it frees (core/kept-heap-env.ts): a fifth less of git's CPU on rails, and with
  // `hugePages` (the log pass) a fifth less again.
  const kept = keptHeapEnv(env, { hugePages });
  // `runProcess` gives a command named `git` the fixed object view; through stdbuf it is given here.
  if (stdbuf) return { command: stdbuf, args: ['-o', BLOCK, 'git', ...args], env: fixedGitEnv(kept) };
  return { command: 'git', args: [...args], env: kept };
}

/**
 * stdbuf's own failures (exit 125: it could not set the buffer; 126 and 127: git could not be run) read as git not
 * starting, the one-line error `checkGitResult` gives when git is not on PATH.
 */
export function asGitResult(command: GitCommand, result: ProcessResult): ProcessResult {
  if (command.command === 'git' || result.spawnError || result.aborted) return result;
  if (result.exitCode === null || result.exitCode < 125 || result.exitCode > 127) return result;
  const spawnError: NodeJS.ErrnoException = new Error(result.stderr.trim());
  spawnError.code = result.exitCode === 127 ? 'ENOENT' : 'EACCES';
  return { ...result, spawnError };
}

let found: { path: string; result: string | null } | null = null;

/** `stdbuf` on PATH, looked up once per PATH. */
function stdbufPath(env: NodeJS.ProcessEnv): string | null {
  const path = env.PATH ?? '';
  if (found?.path === path) return found.result;
  let result: string | null = null;
  for (const folder of path.split(delimiter)) {
    if (!folder) continue;
    const candidate = join(folder, 'stdbuf');
    if (existsSync(candidate)) {
      result = candidate;
      break;
    }
  }
  found = { path, result };
  return result;
}
