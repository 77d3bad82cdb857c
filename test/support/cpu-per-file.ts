import childProcess from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { basename, relative } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/**
 * A vitest setup file: with TOLLGATE_TEST_CPU_LOG set to a file, each test file appends one JSON line to it, the CPU
 * its worker spent on the file and the CPU of every child process the file started and waited for (git, the built
 * CLI, npm, fake agents), from the kernel's own counts (/proc/self/stat: utime, stime, cutime, cstime), and each child
 * command's count and CPU. That is what a file costs the machine, which decides `npm test`'s time when the machine is
 * shared (docs/testing.md).
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

/** Each child command's count and CPU in the current file, keyed by its label (`git commit`, `node fake-agent.mjs`). */
interface ChildCommands {
  byLabel: Map<string, { count: number; seconds: number }>;
  lastChildTicks: number;
}

const GIT_OPTIONS_WITH_VALUE = new Set(['-c', '-C', '--git-dir', '--work-tree', '--namespace', '--exec-path']);

/** A short name for a child: the program and its first word that is not an option (git's subcommand, node's script). */
export function childLabel(file: string, argv: readonly string[]): string {
  const program = basename(file);
  const args = argv.slice(1);
  if ((program === 'sh' || program === 'bash') && args[0] === '-c') {
    return `sh -c ${basename((args[1] ?? '').trim().split(/\s+/)[0] ?? '')}`;
  }
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (program === 'git' && GIT_OPTIONS_WITH_VALUE.has(arg)) {
      index++;
      continue;
    }
    if (arg.startsWith('-')) continue;
    return `${program} ${basename(arg)}`;
  }
  return program;
}

const COMMANDS_KEY = Symbol.for('tollgate.test.childCommands');

/**
 * Counts every child process by label, with the CPU the kernel adds to this process's children's count when it is
 * reaped (a child reaped in the same turn as another may carry that one's share too: an estimate, exact for the
 * synchronous calls). Installed once per worker; each file resets the counts.
 */
function childCommands(): ChildCommands {
  const global = globalThis as Record<symbol, ChildCommands | undefined>;
  const existing = global[COMMANDS_KEY];
  if (existing) return existing;
  const state: ChildCommands = { byLabel: new Map(), lastChildTicks: cpuTicks()?.children ?? 0 };
  global[COMMANDS_KEY] = state;
  const record = (label: string) => {
    const children = cpuTicks()?.children ?? state.lastChildTicks;
    const entry = state.byLabel.get(label) ?? { count: 0, seconds: 0 };
    entry.count++;
    entry.seconds += (children - state.lastChildTicks) * TICK_SECONDS;
    state.lastChildTicks = children;
    state.byLabel.set(label, entry);
  };
  const prototype = childProcess.ChildProcess.prototype as unknown as {
    spawn(this: childProcess.ChildProcess, options: { file: string; args: string[] }): unknown;
  };
  const spawn = prototype.spawn;
  prototype.spawn = function (options) {
    const result = spawn.call(this, options);
    const label = childLabel(options.file, options.args ?? []);
    this.once('exit', () => record(label));
    return result;
  };
  const wrapSync = <F extends (...args: never[]) => unknown>(run: F, labelOf: (args: Parameters<F>) => string): F =>
    ((...args: Parameters<F>) => {
      // What async children were reaped before this call belongs to them, not to this command.
      state.lastChildTicks = cpuTicks()?.children ?? state.lastChildTicks;
      try {
        return run(...args);
      } finally {
        record(labelOf(args));
      }
    }) as F;
  const argvOf = (file: unknown, args: unknown) => [String(file), ...(Array.isArray(args) ? args.map(String) : [])];
  childProcess.spawnSync = wrapSync(childProcess.spawnSync, ([file, args]) =>
    childLabel(String(file), argvOf(file, args)),
  );
  childProcess.execFileSync = wrapSync(childProcess.execFileSync, ([file, args]) =>
    childLabel(String(file), argvOf(file, args)),
  );
  childProcess.execSync = wrapSync(childProcess.execSync, ([command]) =>
    childLabel('sh', ['sh', '-c', String(command)]),
  );
  syncBuiltinESMExports();
  return state;
}

const logFile = process.env[CPU_LOG_ENV];
if (logFile) {
  const commands = childCommands();
  commands.byLabel.clear();
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
      // The child commands by CPU, the heaviest first: [label, count, seconds].
      commands: [...commands.byLabel]
        .sort((a, b) => b[1].seconds - a[1].seconds)
        .map(([label, { count, seconds }]) => [label, count, Number(seconds.toFixed(2))]),
    };
    appendFileSync(logFile, `${JSON.stringify(line)}\n`);
  });
}
