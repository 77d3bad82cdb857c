// Preloaded into a timed process (`node -r ./bench/thread-cpu.cjs bin/tollgate.cjs run …`): at exit it writes the CPU
// time of the main thread and of the process's other live threads (V8's compiler and garbage collector helpers,
// libuv's pool, workers) to stderr, one marked JSON line. Linux only (/proc/self/task); a thread that ended before the
// exit is not counted. What it told: a first run's optimizing compiler threads (docs/benchmarks.md, "The optimizing
// compiler's share of a first run").
const fs = require('node:fs');

process.on('exit', () => {
  const ticksPerSecond = 100;
  const ms = { main: 0, others: 0 };
  try {
    for (const task of fs.readdirSync('/proc/self/task')) {
      const stat = fs.readFileSync(`/proc/self/task/${task}/stat`, 'latin1');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cpu = ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
      if (task === String(process.pid)) ms.main += cpu;
      else ms.others += cpu;
    }
  } catch {
    return; // not Linux
  }
  fs.writeSync(2, `\nbench-thread-cpu:${JSON.stringify({ mainMs: ms.main, otherThreadsMs: ms.others })}\n`);
});
