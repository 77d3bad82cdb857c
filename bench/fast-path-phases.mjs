#!/usr/bin/env node
// Where a fast path's time goes, phase by phase: the repeat `tollgate run` and the stop hook on a committed,
// unpushed, validated change (as bench/startup.mjs makes it), and `node -e 0` beside them, each process started with
// a preload (bench/fast-path-phases-preload.cjs) that marks when each phase starts and ends and the process's own CPU
// then. Prints, per command, the median of N runs of each mark (ms since the parent started the process, and the
// process's own CPU), the whole process tree's CPU against Node's own (the rest is git and its shell), and the
// built-in modules loaded beyond `node -e 0`'s. The preload's own wrapping costs a little: read the figures beside
// each other, not against bench/startup.mjs's.
//
//   npm run build && node bench/fast-path-phases.mjs [--runs N] [--bin OTHER/bin/tollgate.cjs] [--json]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clearMachineStartupCost, exitWithUsageIfAsked, median, printResult } from './measure.mjs';
import { childrenCpuMs, makeCommittedChangeRepo, startupSandbox, stopPayloadFor } from './startup-repos.mjs';

exitWithUsageIfAsked(import.meta.url);

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const flag = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const runs = Number(flag('--runs', 15));
const bin = flag('--bin', join(here, '..', 'bin', 'tollgate.cjs'));
const preload = join(here, 'fast-path-phases-preload.cjs');

const certificatesNote = clearMachineStartupCost();
if (certificatesNote) console.log(certificatesNote);
const { sandbox, env } = startupSandbox('tollgate-bench-phases-');
env.TOLLGATE_CACHE_DIR = join(sandbox, 'code-cache');
const repo = makeCommittedChangeRepo(sandbox, env, 'committed');
const payload = stopPayloadFor(repo);
const marksFile = join(mkdtempSync(join(sandbox, 'marks-')), 'marks.jsonl');

/** One process with the preload: its marks (as offsets from when it was started), own and whole-tree CPU. */
function traced(commandArgs, input) {
  rmSync(marksFile, { force: true });
  const cpuBefore = childrenCpuMs();
  const startedAt = performance.timeOrigin + performance.now();
  const result = spawnSync(process.execPath, ['--require', preload, ...commandArgs], {
    cwd: repo,
    env: { ...env, FAST_PATH_PHASES_OUT: marksFile },
    input,
    encoding: 'utf8',
  });
  const wallMs = performance.timeOrigin + performance.now() - startedAt;
  const cpuAfter = childrenCpuMs();
  if (result.status !== 0) throw new Error(`${commandArgs.join(' ')}: exit ${result.status}: ${result.stderr}`);
  const line = JSON.parse(readFileSync(marksFile, 'utf8'));
  const marks = new Map();
  for (const mark of line.marks) if (!marks.has(mark.name)) marks.set(mark.name, { ...mark, at: mark.at - startedAt });
  return {
    wallMs,
    treeCpuMs: cpuBefore === null ? null : cpuAfter - cpuBefore,
    ownCpuMs: line.ownCpu.userMs + line.ownCpu.systemMs,
    marks,
    modules: line.modules,
    stdout: result.stdout,
  };
}

// The first run leaves a note, the second (past git's racy-clean window) saves its stamp, the rest answer from it;
// the stop hook's first answer saves its own stamp.
const plain = (commandArgs, input) =>
  spawnSync(process.execPath, commandArgs, { cwd: repo, env, input, encoding: 'utf8' });
plain([bin, 'run']);
await new Promise((resolveSleep) => setTimeout(resolveSleep, 2100));
for (let warm = 0; warm < 2; warm++) {
  plain([bin, 'run']);
  plain([bin, 'hook', 'stop'], payload);
}

const commands = [
  { name: 'node', label: 'node -e 0', argv: ['-e', '0'] },
  { name: 'run', label: 'tollgate run (repeat, committed unpushed change)', argv: [bin, 'run'] },
  { name: 'stopHook', label: 'tollgate hook stop (same change)', argv: [bin, 'hook', 'stop'], input: payload },
];
const samples = Object.fromEntries(commands.map((command) => [command.name, []]));
const loadBefore = loadavg()[0];
for (let index = 0; index < runs; index++)
  for (const command of commands) samples[command.name].push(traced(command.argv, command.input));
const loadAfter = loadavg()[0];

const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
const nodeModules = new Set(samples.node[0].modules);
const values = { runs, load: [loadBefore, loadAfter] };
for (const command of commands) {
  const list = samples[command.name];
  const wall = median(list.map((sample) => sample.wallMs));
  const own = mean(list.map((sample) => sample.ownCpuMs));
  const tree = list.every((sample) => sample.treeCpuMs !== null) ? mean(list.map((sample) => sample.treeCpuMs)) : null;
  console.log(
    `\n${command.label}: wall ${wall.toFixed(1)} ms (median of ${runs}); Node's own CPU ${own.toFixed(1)} ms` +
      (tree === null ? '' : `, the whole tree's ${tree.toFixed(1)} ms (children: ${(tree - own).toFixed(1)} ms)`) +
      ' (means)',
  );
  // Every mark seen in every run, in the order of its median time.
  const names = [...list[0].marks.keys()].filter((name) => list.every((sample) => sample.marks.has(name)));
  const rows = names
    .map((name) => ({
      name,
      at: median(list.map((sample) => sample.marks.get(name).at)),
      cpu: list[0].marks.get(name).cpuMs === null ? null : median(list.map((sample) => sample.marks.get(name).cpuMs)),
    }))
    .sort((a, b) => a.at - b.at);
  console.log('      ms    CPU ms  mark (median of runs; ms since the parent started the process)');
  for (const row of rows)
    console.log(
      `${row.at.toFixed(1).padStart(8)}  ${row.cpu === null ? '        ' : row.cpu.toFixed(1).padStart(8)}  ${row.name}`,
    );
  console.log(`${wall.toFixed(1).padStart(8)}            the parent saw the process end`);
  const extra = list[0].modules.filter((name) => !nodeModules.has(name));
  if (command.name !== 'node') console.log(`built-in modules beyond node -e 0's (${extra.length}): ${extra.join(' ')}`);
  values[command.name] = { wallMs: wall, ownCpuMs: own, treeCpuMs: tree, marks: rows, extraModules: extra };
}
printResult({
  name: 'fast-path-phases',
  line: `\nload average (1 min) ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after, on ${process.platform} with Node ${process.version}`,
  values,
});
rmSync(sandbox, { recursive: true, force: true });
