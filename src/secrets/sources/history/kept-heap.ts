/**
 * `env` for a long git pass (`git log -p`, `git cat-file --batch`) whose allocator keeps the memory it frees.
 *
 * glibc's malloc hands a freed large block back to the kernel (`mmap` for blocks over a threshold that starts at
 * 128 KiB, heap trimmed above 128 KiB free), and git's diff loop allocates and frees such blocks for every blob it
 * inflates and diffs: each new one is faulted in again page by page, zeroed by the kernel. On rails v7.2.0..v8.0.0
 * the log pass took 31,000 page faults and a quarter of its CPU in the kernel; with both thresholds at 32 MiB (the
 * largest `mmap_threshold` glibc takes) 15,600 faults and about a fifth less CPU, its peak RSS the same (the pack's
 * mapping is most of it). The output is git's own either way: only where freed memory goes changes.
 *
 * A caller who tunes malloc already (`GLIBC_TUNABLES`, `MALLOC_*_` variables) keeps their settings untouched. Other C
 * libraries (musl, macOS) ignore the variable.
 */
export const KEPT_HEAP_TUNABLES = 'glibc.malloc.trim_threshold=33554432:glibc.malloc.mmap_threshold=33554432';

export function keptHeapEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env.GLIBC_TUNABLES !== undefined) return env;
  if (Object.keys(env).some((name) => name.startsWith('MALLOC_'))) return env;
  return { ...env, GLIBC_TUNABLES: KEPT_HEAP_TUNABLES };
}
