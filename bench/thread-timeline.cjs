'use strict';
// A preload (`node -r bench/thread-timeline.cjs`, also through NODE_OPTIONS) that writes one JSON line per scanning
// thread to the file $TOLLGATE_BENCH_TIMELINE names when the thread ends: when the thread started, opened its first
// and last file of the folder being scanned, how many files and bytes it read, its own CPU time (user and system, from
// /proc/thread-self/stat, so Linux only) before its first file and in all, its page faults, the CPU of its first file
// (scanned before its isolate has optimized code) and the garbage collection pauses it saw. The pauses are a
// `PerformanceObserver`'s, whose entries arrive through the event loop: a worker's scan blocks its loop until it posts
// its outcome, so a worker's line misses most of its pauses (`node --trace-gc` shows each isolate's; on the npm corpus
// the worker's scavenges took as long as the main thread's). The main thread's line also has the CPU of every other
// thread of the process (V8's platform threads: concurrent compilation, parallel and concurrent garbage collection).
// Preloads run in worker threads too, so one run gives every thread's line. `bench/scale.mjs threads` prints them;
// times are milliseconds since the epoch.
const fs = require('node:fs');
const { isMainThread, threadId } = require('node:worker_threads');
const { PerformanceObserver, performance } = require('node:perf_hooks');

const out = process.env.TOLLGATE_BENCH_TIMELINE;
if (out && process.platform === 'linux') {
  const now = () => performance.timeOrigin + performance.now();
  const folder = `${process.cwd()}/`;
  const tick = 1000 / 100; // USER_HZ: the kernel reports thread CPU in hundredths of a second

  /** User and system CPU (ms) of a thread from its /proc stat line, and its minor page faults. */
  const cpuOf = (path) => {
    const stat = fs.readFileSync(path, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(fields[11]) * tick, system: Number(fields[12]) * tick, faults: Number(fields[7]) };
  };
  // This thread's time on a CPU in nanoseconds (schedstat's first field), for the first file's cost: the stat line's
  // hundredths of a second are too coarse for one file.
  const { readSync: readAt } = fs;
  const schedstat = fs.openSync('/proc/thread-self/schedstat', 'r');
  const schedBytes = Buffer.alloc(64);
  const onCpuMs = () => {
    const length = readAt(schedstat, schedBytes, 0, schedBytes.length, 0);
    let ns = 0;
    for (let index = 0; index < length && schedBytes[index] >= 48 && schedBytes[index] <= 57; index++)
      ns = ns * 10 + schedBytes[index] - 48;
    return ns / 1e6;
  };

  // This thread's id in /proc (`<pid>/task/<tid>`): the main thread leaves workers out of the "other threads".
  const tid = fs.readlinkSync('/proc/thread-self').split('/').pop();
  const line = { thread: isMainThread ? 'main' : `worker ${threadId}`, tid, start: now(), files: 0, bytes: 0, gcMs: 0 };
  let reading = false;
  const { openSync, readSync } = fs;
  // The scan reads every file with openSync and readSync (file-reader.ts); anything else opened is not a scanned file,
  // nor is git's own data (the listing reads `.git/index` for the tracked files' sizes before any file is scanned).
  fs.openSync = function timedOpen(path, ...rest) {
    if (typeof path === 'string' && path.startsWith(folder) && !path.includes('/.git/')) {
      const at = now();
      if (!reading) {
        reading = true;
        line.firstFile = at;
        line.cpuBeforeFirst = cpuOf('/proc/thread-self/stat');
        line.onCpuAtFirst = onCpuMs();
      } else if (line.files === 1) {
        // The first file's bytes and CPU: scanned before V8 has optimized the scanner in this thread's isolate.
        line.firstFileBytes = line.bytes;
        line.firstFileCpu = onCpuMs() - line.onCpuAtFirst;
      }
      line.lastFile = at;
      line.files++;
    }
    return openSync.call(this, path, ...rest);
  };
  fs.readSync = function timedRead(...args) {
    const read = readSync.apply(this, args);
    if (reading) line.bytes += read;
    return read;
  };
  if (isMainThread) {
    // When each worker's outcome arrives and when its thread has exited: the scan waits for the later.
    const threads = require('node:worker_threads');
    const { Worker } = threads;
    line.workers = [];
    threads.Worker = class TimedWorker extends Worker {
      constructor(...args) {
        super(...args);
        const record = { created: now() };
        line.workers.push(record);
        this.once('message', () => {
          record.message = now();
        });
        this.once('exit', () => {
          record.exit = now();
        });
      }
    };
  }
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) line.gcMs += entry.duration;
  }).observe({ entryTypes: ['gc'] });

  let written = false;
  const writeLine = () => {
    if (written) return;
    written = true;
    line.end = now();
    line.cpu = cpuOf('/proc/thread-self/stat');
    if (isMainThread) {
      // What is left beside this thread and the workers (whose threads may still be tearing down; each writes its
      // line as it posts its outcome) is V8's and libuv's.
      let lines = '';
      try {
        lines = fs.readFileSync(out, 'utf8');
      } catch {}
      const workers = new Set(
        lines
          .split('\n')
          .filter(Boolean)
          .map((text) => JSON.parse(text).tid),
      );
      let others = 0;
      for (const task of fs.readdirSync('/proc/self/task')) {
        if (task === String(process.pid) || workers.has(task)) continue;
        try {
          const cpu = cpuOf(`/proc/self/task/${task}/stat`);
          others += cpu.user + cpu.system;
        } catch {}
      }
      line.otherThreadsCpu = others;
    }
    fs.appendFileSync(out, `${JSON.stringify(line)}\n`);
  };
  if (!isMainThread) {
    // A worker's line is written as it posts its outcome: the scan goes on then and the process may exit before the
    // worker's own exit (its thread is not waited for), so its 'exit' handler may never run.
    const { parentPort } = require('node:worker_threads');
    const post = parentPort.postMessage;
    parentPort.postMessage = function timedPost(...args) {
      writeLine();
      return post.apply(this, args);
    };
  }
  process.on('exit', writeLine);
}
