// Where each scanning thread's time goes: one `tollgate scan` with bench/thread-timeline.cjs preloaded, printed one
// line per thread (see that file). Used by `bench/scale.mjs threads`; alone:
//   node bench/thread-timeline.mjs DIR THREADS [scan args...]     (e.g. bench/.cache/text 2 --all)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exitWithUsageIfAsked } from './measure.mjs';

exitWithUsageIfAsked(import.meta.url);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const preload = join(root, 'bench/thread-timeline.cjs');

/** One scan of `dir` on `threads` threads with the preload; its threads' records, the main thread's first. */
export function threadTimeline(cli, dir, args, threads) {
  const work = mkdtempSync(join(tmpdir(), 'tollgate-timeline-'));
  const file = join(work, 'timeline.jsonl');
  const env = {
    ...process.env,
    TOLLGATE_SCAN_THREADS: String(threads),
    TOLLGATE_BENCH_TIMELINE: file,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} -r ${preload}`.trim(),
  };
  try {
    // Twice: the preload changes the flags the code cache is keyed by, so the first run may compile the whole CLI.
    for (let round = 0; round < 2; round++) {
      rmSync(file, { force: true });
      const run = spawnSync(process.execPath, [cli, 'scan', ...args, '--format', 'json'], {
        cwd: dir,
        env,
        encoding: 'utf8',
        maxBuffer: 1 << 30,
      });
      if (run.status !== 0 && run.status !== 1) throw new Error(`tollgate scan exited ${run.status}: ${run.stderr}`);
    }
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text));
    return lines.sort((a, b) => (a.thread === 'main' ? -1 : b.thread === 'main' ? 1 : a.start - b.start));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The records as lines: times from the main thread's start, CPU before the first file and while scanning. */
export function formatTimeline(records) {
  const origin = records[0].start;
  const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
  const at = (time) => (time === undefined ? '-' : s(time - origin));
  return records.map((r) => {
    const before = r.cpuBeforeFirst ?? r.cpu;
    const total = r.cpu.user + r.cpu.system;
    const scanning = total - before.user - before.system;
    const perMb = r.bytes > 0 ? `${((scanning * 1e6) / r.bytes).toFixed(1)} ms CPU/MB` : 'no bytes';
    // The first file is scanned before the isolate's optimized code: compare the rest's rate across threads.
    const first =
      r.firstFileCpu === undefined
        ? ''
        : `, the first file (${(r.firstFileBytes / 1e6).toFixed(1)} MB) ${s(r.firstFileCpu)}, the rest ` +
          `${(((scanning - r.firstFileCpu) * 1e6) / (r.bytes - r.firstFileBytes)).toFixed(1)} ms CPU/MB`;
    const faults = before.faults === undefined ? '' : `; ${r.cpu.faults - before.faults} page faults scanning`;
    const others = r.otherThreadsCpu === undefined ? '' : `; other threads of the process ${s(r.otherThreadsCpu)} CPU`;
    const workers = (r.workers ?? []).map(
      (w, index) => `; worker ${index + 1}'s outcome at ${at(w.message)}, its thread gone at ${at(w.exit)}`,
    );
    return (
      `  ${r.thread}: started ${at(r.start)}, first file ${at(r.firstFile)}, last ${at(r.lastFile)}, ended ` +
      `${at(r.end)}; ${r.files} files, ${(r.bytes / 1e6).toFixed(1)} MB; CPU before its first file ` +
      `${s(before.user)} user + ${s(before.system)} sys, scanning ${s(scanning)} (${perMb}${first})${faults}; ` +
      `GC pauses seen ${s(r.gcMs)}${others}${workers.join('')}`
    );
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [dir, threads, ...args] = process.argv.slice(2);
  const before = loadavg()[0].toFixed(2);
  const records = threadTimeline(join(root, 'bin/tollgate.cjs'), resolve(dir), args.length ? args : ['.'], threads);
  console.log(`timeline, ${threads} threads (load ${before} before, ${loadavg()[0].toFixed(2)} after):`);
  for (const line of formatTimeline(records)) console.log(line);
}
