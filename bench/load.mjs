// CPU load made on purpose: `count` processes that each burn one core at normal priority, beside a bench or `npm test`,
// so that "at load 8" means the same thing on every machine. Shared by bench/run-all.mjs (--load N) and
// scripts/test-under-load.mjs.
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';

/**
 * Each burner spins, and every few milliseconds checks that the process that started it is still there (Node keeps
 * process.ppid from start-up, so it asks the kernel with signal 0): killed with SIGKILL (no exit handler runs), the
 * bench leaves no burner behind; they end on their own within moments.
 */
const BURNER = `const parent = ${process.pid};
for (;;) {
  for (let i = 0; i < 2e6; i++);
  try { process.kill(parent, 0); } catch { process.exit(0); }
}`;

/**
 * Starts `count` burners (none for 0) and returns `stop()`, which kills them; they are also killed when this process
 * exits or is interrupted (SIGINT, SIGTERM, SIGHUP: then this process exits with 128 + the signal's number).
 */
export function startBurners(count) {
  const children = [];
  for (let index = 0; index < count; index++)
    children.push(spawn(process.execPath, ['-e', BURNER], { stdio: 'ignore' }));
  const stop = () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    process.off('exit', stop);
    for (const [signal, handler] of handlers) process.off(signal, handler);
  };
  const handlers = [
    ['SIGINT', 2],
    ['SIGTERM', 15],
    ['SIGHUP', 1],
  ].map(([signal, number]) => [
    signal,
    () => {
      stop();
      process.exit(128 + number);
    },
  ]);
  process.on('exit', stop);
  for (const [signal, handler] of handlers) process.on(signal, handler);
  return { pids: children.map((child) => child.pid), stop };
}

/** The one-minute load average, as the benches print it. */
export function loadNow() {
  return Number(loadavg()[0].toFixed(2));
}

/**
 * Waits until the one-minute load average has had time to reflect `burners` (it is an average: about a minute to
 * climb most of the way), at most `maxSeconds`, so that a loaded pass does not start while the figure still says quiet.
 */
export async function settleLoad(burners, maxSeconds = 60) {
  const started = Date.now();
  while (Date.now() - started < maxSeconds * 1000 && loadNow() < burners * 0.8)
    await new Promise((resolve) => setTimeout(resolve, 2000));
}
