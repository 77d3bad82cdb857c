'use strict';
// A preload (`node -r bench/first-run-timeline-preload.cjs bin/tollgate.cjs …`) for bench/first-run-timeline.mjs: at
// exit it writes one JSON object to $TIMELINE_NODE_LOG with, on the monotonic clock in nanoseconds (process.hrtime,
// the clock the git shim reads):
// - when the process started and when this preload ran;
// - every child process: when spawn was called, when it returned (the parent's cost of the fork), when the child
//   exited, and its argv;
// - every worker thread: when it was made, its first message and its exit;
// - the main thread's event loop in slices of about 2 ms: how long of each slice it sat idle in the event loop
//   (event-loop utilization's idle time; the rest of the slice, including the time before the loop started, it was
//   busy), so the timeline can tell the main thread working from the main thread waiting;
// - what the run wrote to stderr (progress lines) and when;
// - the offset between Date.now() and the monotonic clock, to place the run's own events (ISO timestamps).
const { performance } = require('node:perf_hooks');
const fs = require('node:fs');

const out = process.env.TIMELINE_NODE_LOG;
if (out) {
  const now = () => Number(process.hrtime.bigint());
  const record = {
    processStart: now() - Math.round(performance.now() * 1e6),
    preload: now(),
    epochOffsetMs: Date.now() - now() / 1e6,
    children: [],
    workers: [],
    loop: [],
    stderr: [],
  };
  const childProcess = require('node:child_process');
  const { spawn, spawnSync } = childProcess;
  childProcess.spawn = function timedSpawn(command, args, ...rest) {
    const entry = { argv: [command, ...(Array.isArray(args) ? args : [])], called: now() };
    record.children.push(entry);
    const child = spawn.call(this, command, args, ...rest);
    entry.returned = now();
    child.once('exit', () => {
      entry.exited = now();
    });
    return child;
  };
  childProcess.spawnSync = function timedSpawnSync(command, args, ...rest) {
    const entry = { argv: [command, ...(Array.isArray(args) ? args : [])], called: now(), sync: true };
    record.children.push(entry);
    const result = spawnSync.call(this, command, args, ...rest);
    entry.returned = now();
    entry.exited = entry.returned;
    return result;
  };
  const threads = require('node:worker_threads');
  const { Worker } = threads;
  threads.Worker = class TimedWorker extends Worker {
    constructor(...args) {
      super(...args);
      const entry = { created: now() };
      record.workers.push(entry);
      this.once('message', () => {
        entry.message = now();
      });
      this.once('exit', () => {
        entry.exited = now();
      });
    }
  };
  const write = process.stderr.write;
  process.stderr.write = function timedWrite(chunk, ...rest) {
    record.stderr.push({ at: now(), text: String(chunk).slice(0, 120) });
    return write.call(this, chunk, ...rest);
  };
  let last = performance.eventLoopUtilization();
  let lastAt = now();
  const slice = setInterval(() => {
    const elu = performance.eventLoopUtilization();
    const at = now();
    const delta = performance.eventLoopUtilization(elu, last);
    record.loop.push([lastAt, at, delta.idle]);
    last = elu;
    lastAt = at;
  }, 2);
  slice.unref();
  process.on('exit', () => {
    record.exit = now();
    // The last slice, up to now: whatever ran after the last tick (the report's rendering, exit handlers).
    const delta = performance.eventLoopUtilization(performance.eventLoopUtilization(), last);
    record.loop.push([lastAt, record.exit, delta.idle]);
    fs.writeFileSync(out, JSON.stringify(record));
  });
}
