// Preloaded into a timed process (`node --import ./bench/rusage.mjs …`): at exit it writes what getrusage says about the
// whole process (every thread: workers, V8's GC helpers, libuv's pool) to stderr, one marked JSON line that
// bench/scan-sys.mjs picks out. CPU from outside (wall clock, or `time`) cannot split user from sys, nor count page faults.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  const usage = process.resourceUsage();
  const line = {
    userSeconds: usage.userCPUTime / 1e6,
    sysSeconds: usage.systemCPUTime / 1e6,
    minorFaults: usage.minorPageFault,
    voluntarySwitches: usage.voluntaryContextSwitches,
    involuntarySwitches: usage.involuntaryContextSwitches,
    maxRssMb: Math.round(usage.maxRSS / 1024),
  };
  writeSync(2, `\nbench-rusage:${JSON.stringify(line)}\n`);
});
