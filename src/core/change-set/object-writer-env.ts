/**
 * glibc's malloc settings for a git that writes many loose objects (the snapshot's `git add`, `hash-object -w`). git
 * deflates each new blob with a fresh zlib stream (about 260 KB of buffers), frees it, and glibc then gives the top of
 * the heap back to the kernel (its trim threshold is 128 KB): the next blob grows the heap again and faults every page
 * of it in anew. On the project's 2-core VMs a first run that stages 1,900 new blobs spent 2.4-3.4 s of CPU in that
 * `git add`, most of it in the kernel, and 0.5-0.9 s with the heap kept (docs/benchmarks.md). The settings change how
 * git's memory is managed, never what it reads or writes; other C libraries ignore them.
 */
export const OBJECT_WRITER_MALLOC: ReadonlyArray<readonly [string, string]> = [
  // Keep up to 64 MiB of freed memory rather than trimming the heap after every blob.
  ['MALLOC_TRIM_THRESHOLD_', String(64 * 1024 * 1024)],
  // Grow the heap by 16 MiB at a time: fewer brk calls while the index and the blobs are read.
  ['MALLOC_TOP_PAD_', String(16 * 1024 * 1024)],
];

/**
 * `env` with OBJECT_WRITER_MALLOC added, for a git that writes objects. Whatever the caller's environment (`from`)
 * already says about malloc wins: a setting of the user's, or any malloc tunable in `GLIBC_TUNABLES`, leaves it alone.
 */
export function objectWriterEnv(
  env: Record<string, string>,
  from: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  if (/glibc\.malloc\./.test(from.GLIBC_TUNABLES ?? '') || /glibc\.malloc\./.test(env.GLIBC_TUNABLES ?? '')) return env;
  const added: Record<string, string> = {};
  for (const [key, value] of OBJECT_WRITER_MALLOC) {
    if (from[key] === undefined && env[key] === undefined) added[key] = value;
  }
  return { ...added, ...env };
}
