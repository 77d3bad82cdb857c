/**
 * glibc's malloc told to keep the memory it frees, for a git that handles many blobs: the snapshot's `git add` and
 * `hash-object -w` (a fresh zlib stream per blob, about 260 KB of buffers), and history's long passes (`git log -p`,
 * `git cat-file --batch`: each blob inflated and diffed). By default glibc gives freed blocks back to the kernel (the
 * heap's top above 128 KiB free; blocks above a threshold that starts at 128 KiB are mapped and unmapped one by one),
 * so the next blob faults every page in again, zeroed by the kernel. Measured (docs/benchmarks.md): a first run's `git
 * add` of 1,900 new blobs took 2.4-3.4 s of CPU, mostly in the kernel, and 0.5-0.9 s with the heap kept; the log pass
 * of rails v7.2.0..v8.0.0 half its page faults and about a fifth of its CPU fewer. Only where freed memory goes
 * changes, never what git reads or writes; other C libraries (musl, macOS) ignore the variable.
 */
export const KEPT_HEAP_TUNABLES =
  // Keep up to 64 MiB free before trimming; blocks up to 32 MiB (the largest threshold glibc takes) from the heap,
  // not a mapping of their own; grow the heap 16 MiB at a time.
  'glibc.malloc.trim_threshold=67108864:glibc.malloc.mmap_threshold=33554432:glibc.malloc.top_pad=16777216';

/**
 * The kept heap in transparent huge pages (glibc 2.35 and later `madvise` its heap where the kernel's THP mode is
 * `madvise`; `always` has them anyway, `never` and older glibc ignore it): one fault per 2 MiB in place of 512. For
 * history's long passes, whose git touches 60-130 MB (rails v7.2.0..v8.0.0's log pass: 15,700 faults, about 2,000 in
 * huge pages, and a fifth less CPU), and a first run's snapshot `git add` and `diff-index` passes, which read a 20k-entry
 * index and every changed blob (on 20k files / 2k changed: 8,700 faults about 4,100, their CPU 0.50 s about 0.45 s);
 * a short git would have whole 2 MiB pages zeroed for the few kilobytes it uses.
 */
export const HUGE_KEPT_HEAP_TUNABLES = `${KEPT_HEAP_TUNABLES}:glibc.malloc.hugetlb=1`;

/**
 * What to add to an environment (`seen`: what the process will run with) for the heap to be kept: nothing when its
 * user tunes malloc already (a `MALLOC_*_` variable, or a malloc tunable in GLIBC_TUNABLES); their other tunables
 * are kept before ours.
 */
function keptHeapAdditions(seen: NodeJS.ProcessEnv, hugePages: boolean): Record<string, string> {
  const kept = hugePages ? HUGE_KEPT_HEAP_TUNABLES : KEPT_HEAP_TUNABLES;
  if (Object.keys(seen).some((name) => name.startsWith('MALLOC_') && seen[name] !== undefined)) return {};
  const tunables = seen.GLIBC_TUNABLES ?? '';
  if (tunables.includes('glibc.malloc.')) return {};
  return { GLIBC_TUNABLES: tunables === '' ? kept : `${tunables}:${kept}` };
}

/** A whole environment (`env`, what the child gets as it is) with the heap kept; `hugePages` for a long pass. */
export function keptHeapEnv(env: NodeJS.ProcessEnv, { hugePages = false } = {}): NodeJS.ProcessEnv {
  const added = keptHeapAdditions(env, hugePages);
  return Object.keys(added).length === 0 ? env : { ...env, ...added };
}

/**
 * Variables over the inherited environment (`extra`, for a runner that adds them to `from`, this process's own), with
 * the heap kept unless the two together already tune malloc; `hugePages` as for `keptHeapEnv`.
 */
export function withKeptHeap(
  extra: Record<string, string>,
  from: NodeJS.ProcessEnv = process.env,
  { hugePages = false } = {},
): Record<string, string> {
  return {
    ...extra,
    ...keptHeapAdditions({ ...from, ...extra }, hugePages),
  };
}
