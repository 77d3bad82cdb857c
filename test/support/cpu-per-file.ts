import { appendFileSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/**
 * A vitest setup file: with TOLLGATE_TEST_CPU_LOG set to a file, each test file appends one JSON line to it, the CPU
 * its worker spent on the file and the CPU of every child process the file started and waited for (git, the built
 * CLI, npm, fake agents), from the kernel's own counts (/proc/self/stat: utime, stime, cutime, cstime). That is what
 * a file costs the machine, which decides `npm test`'s time when the machine is shared (docs/testing.md).
 * Unset (the usual case), it does nothing.
 */
export const CPU_LOG_ENV = 'TOLLGATE_TEST_CPU_LOG';

interface CpuTicks {
  self: number;
  children: number;
}

/** Seconds per clock tick: Linux reports /proc times in USER_HZ, 100 on every architecture Node runs on. */
const TICK_SECONDS = 0.01;

function cpuTicks(): CpuTicks | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // The command name (field 2) may hold spaces: the fields that follow start after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14-17 of the whole line (utime, stime, cutime, cstime) are 11-14 here, counted from field 3.
    const field = (index: number) => Number(fields[index]);
    return { self: field(11) + field(12), children: field(13) + field(14) };
  } catch {
    return undefined;
  }
}

const logFile = process.env[CPU_LOG_ENV];
if (logFile) {
  // Counted from here, before the test file is imported: what it does at module level is its cost too.
  const start = cpuTicks();
  const startedAt = performance.now();
  let filepath = '';
  beforeAll((suite) => {
    filepath = 'filepath' in suite ? String(suite.filepath) : (suite.file?.filepath ?? suite.name);
  });
  afterAll(() => {
    const end = cpuTicks();
    if (!start || !end) return;
    const line = {
      file: relative(process.cwd(), filepath),
      selfSeconds: (end.self - start.self) * TICK_SECONDS,
      childSeconds: (end.children - start.children) * TICK_SECONDS,
      wallSeconds: (performance.now() - startedAt) / 1000,
    };
    appendFileSync(logFile, `${JSON.stringify(line)}\n`);
  });
}
