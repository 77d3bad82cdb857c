#!/usr/bin/env node
// `tollgate scan --history` against `git log -p > /dev/null` on the same history, interleaved: CPU (user + system of
// the whole process tree: tollgate's git processes included), wall time and peak memory. Target: ≤ 1.2× the
// CPU of git log -p, ≤ 256 MiB.
//
// BENCH_CORPUS picks the generated history (both deterministic, built with git fast-import, see history-corpus.mjs):
//   merges (default): 2,401 commits, 600 of them merges of feature branches (every fifth one writes lines of its own);
//   long: 5,000 commits (BENCH_COMMITS) of 36 KB lines, about 360 MB of patch, where git's diffs dominate.
// BENCH_REPO=<path> times a real repository instead (its HEAD; BENCH_RANGE=<range> for another range).
// BENCH_OTHER=<path to another checkout's bin/tollgate.cjs> times that build too, in the same rounds (before/after).
// BENCH_ROUNDS sets the rounds (default 5). The load average is printed: on a busy machine CPU time rises too.
//
// Baselines: `git log -p` (what the target names) and `git log -p -U0 --cc` (every commit's added lines, merges' own
// lines included, with rename detection on everywhere as `git log -p` has it: tollgate's own pass leaves it off and
// reads again only the commits that may hold a rename, so its floor is the own-pass figure, not this one).
// Where tollgate's CPU goes, each as a share of `git log -p`'s, so the floor is in every run's output: its own first
// `git log` pass alone (the exact arguments it runs: most of its git CPU; the rename pass and the `cat-file` reads of
// binary files and messages are small), and its start-up (`scan --history END..END`: an empty range, everything but
// the reading and scanning of commits). What is left is the reading and scanning of the patch, binaries and messages.
// One more tollgate run per round has each of its git processes timed (a `git` first on PATH that runs the real one
// under /usr/bin/time): the log pass, the rename pass, the cat-file of binaries and messages, the rest; Node's own CPU
// is the whole tree's less theirs.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeLongLines, writeMergeHeavy } from './history-corpus.mjs';
import { assertSourceHistory, exitWithUsageIfAsked, median, printResult } from './measure.mjs';

exitWithUsageIfAsked(import.meta.url);
// After the usage check: `--help` needs no build.
const { keptHeapEnv } = await import('../dist/core/kept-heap-env.js');

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const corpus = process.env.BENCH_CORPUS ?? 'merges';
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const work = mkdtempSync(join(tmpdir(), 'tollgate-bench-history-'));
const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', HOME: work };
const repo = process.env.BENCH_REPO ? resolve(process.env.BENCH_REPO) : join(work, 'repo');
const range = process.env.BENCH_RANGE ?? (process.env.BENCH_REPO ? 'HEAD' : 'main');

if (!process.env.BENCH_REPO) {
  if (!['merges', 'long'].includes(corpus)) throw new Error(`BENCH_CORPUS: expected merges or long, got ${corpus}`);
  spawnSync('git', ['init', '-q', '-b', 'main', repo], { env });
  const stream = join(work, 'fast-import');
  if (corpus === 'merges') writeMergeHeavy(stream);
  else writeLongLines(stream, Number(process.env.BENCH_COMMITS ?? 5000));
  const imported = spawnSync('sh', ['-c', 'git fast-import --quiet < "$1"', 'sh', stream], { cwd: repo, env });
  if (imported.status !== 0) throw new Error(`git fast-import: ${imported.stderr}`);
  rmSync(stream);
  // A work tree to run tollgate in; the files themselves are not read by --history.
  spawnSync('git', ['checkout', '-q', 'main'], { cwd: repo, env });
}

// A pack file or other piece of git's storage committed into the history would be scanned as binary text by both
// sides and say nothing about source: the bench refuses such a corpus.
assertSourceHistory(repo, range, env);

const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
if (!timeBin) throw new Error('bench/history.mjs needs /usr/bin/time (GNU time) for the process tree CPU');
/** Wall time, CPU (user + system, children waited for included) and peak RSS of one run, its output to /dev/null. */
function measure(command, args, extraEnv = {}) {
  const started = performance.now();
  const result = spawnSync(timeBin, ['-f', '%U %S %M', command, ...args], {
    cwd: repo,
    env: { ...env, ...extraEnv },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const seconds = (performance.now() - started) / 1000;
  const [user, system, rssKb] = result.stderr.toString().trim().split('\n').pop().split(' ').map(Number);
  return { seconds, cpu: user + system, rssMb: rssKb / 1024 };
}

// tollgate's git processes, each timed: a folder first on PATH whose `git` runs the real one under /usr/bin/time and
// appends its CPU and arguments to a log (stdbuf, when tollgate runs git through it, finds this `git` too).
const realGit = spawnSync('sh', ['-c', 'command -v git'], { env }).stdout.toString().trim();
const shimDir = join(work, 'git-shim');
const shimLog = join(work, 'git-shim.log');
mkdirSync(shimDir);
writeFileSync(join(shimDir, 'git'), `#!/bin/sh\nexec ${timeBin} -a -o '${shimLog}' -f '%U %S|%C' '${realGit}' "$@"\n`);
chmodSync(join(shimDir, 'git'), 0o755);
/** Each git process of one tollgate run, by its pass: CPU seconds. */
function gitChildren(bin) {
  rmSync(shimLog, { force: true });
  const run = spawnSync(process.execPath, [bin, 'scan', '--history', range, '--format', 'json'], {
    cwd: repo,
    env: { ...env, PATH: `${shimDir}:${env.PATH}` },
    stdio: 'ignore',
  });
  if (run.status !== 0 && run.status !== 1) throw new Error(`tollgate with the git shim: exit ${run.status}`);
  const passes = { log: 0, renames: 0, catFile: 0, other: 0 };
  for (const line of readFileSync(shimLog, 'utf8').trim().split('\n')) {
    const [times, command] = line.split('|');
    const cpu = times.split(' ').reduce((sum, value) => sum + Number(value), 0);
    const pass = command.includes('--find-renames')
      ? 'renames'
      : command.includes(' log ')
        ? 'log'
        : command.includes('cat-file')
          ? 'catFile'
          : 'other';
    passes[pass] += cpu;
  }
  return passes;
}

const loadBefore = loadavg()[0];
const loads = [];
const gitPlain = [];
const gitCc = [];
const tollgate = [];
const other = [];
const gitOwn = [];
const startUp = [];
const children = [];
const scan = (bin, what = range) => measure(process.execPath, [bin, 'scan', '--history', what, '--format', 'json']);
// The range's end, for an empty range of the same repository: `A..B` and `A...B` end at B, a single revision is its own.
const rangeEnd = range.includes('..') ? range.split(/\.\.\.?/).pop() || 'HEAD' : range;
// tollgate's first pass, its arguments as history-source.ts gives them (one `git log` over the range).
const ownLog = ['-c', 'core.quotePath=false', 'log', '-p', '-U0', '--cc', '--no-renames', '--raw', '--full-index'];
const ownLogTail = [
  '--no-abbrev',
  '--no-color',
  '--no-ext-diff',
  '--no-textconv',
  '--format=%x00commit %H',
  range,
  '--',
];
// As history-source.ts runs it: fully buffered (GIT_FLUSH=0), through `stdbuf -o 256K` where PATH has it, with
// malloc keeping what it frees in huge pages (the build's own keptHeapEnv, src/core/kept-heap-env.ts).
const stdbuf = spawnSync('sh', ['-c', 'command -v stdbuf'], { env }).stdout.toString().trim();
const ownEnv = keptHeapEnv({ ...env, GIT_FLUSH: '0' }, { hugePages: true });
const ownPass = () =>
  stdbuf
    ? measure(stdbuf, ['-o', '256K', 'git', ...ownLog, ...ownLogTail], ownEnv)
    : measure('git', [...ownLog, ...ownLogTail], ownEnv);
for (let round = 0; round < rounds; round++) {
  loads.push(loadavg()[0]);
  // The order turns each round (anchor, this build, the other; then the other, this build, anchor): the run right
  // after `git log -p` was measured paying about a tenth more, and a fixed order put that on this build alone.
  const runs = [
    () => gitPlain.push(measure('git', ['log', '-p', range])),
    () => tollgate.push(scan(join(root, 'bin/tollgate.cjs'))),
    ...(process.env.BENCH_OTHER ? [() => other.push(scan(resolve(process.env.BENCH_OTHER)))] : []),
  ];
  for (const run of round % 2 === 0 ? runs : runs.reverse()) run();
  gitCc.push(measure('git', ['log', '-p', '-U0', '--cc', '--no-color', range]));
  gitOwn.push(ownPass());
  startUp.push(scan(join(root, 'bin/tollgate.cjs'), `${rangeEnd}..${rangeEnd}`));
  children.push(gitChildren(join(root, 'bin/tollgate.cjs')));
}
const med = (runs, key) => median(runs.map((run) => run[key]));
const ours = { cpu: med(tollgate, 'cpu'), seconds: med(tollgate, 'seconds') };
const plain = { cpu: med(gitPlain, 'cpu'), seconds: med(gitPlain, 'seconds') };
const cc = { cpu: med(gitCc, 'cpu'), seconds: med(gitCc, 'seconds') };
const ownGitCpu = med(gitOwn, 'cpu');
const startUpCpu = med(startUp, 'cpu');
const passCpu = Object.fromEntries(['log', 'renames', 'catFile', 'other'].map((pass) => [pass, med(children, pass)]));
const allGitCpu = Object.values(passCpu).reduce((sum, cpu) => sum + cpu, 0);
const share = (cpu) => (cpu / plain.cpu).toFixed(2);
const peak = Math.max(...tollgate.map((run) => run.rssMb));
const git = (args) => spawnSync('git', args, { cwd: repo, env, maxBuffer: 1 << 30 }).stdout;
const count = Number(git(['rev-list', '--count', range]));
const merges = Number(git(['rev-list', '--count', '--merges', range]));
const patchMb = git(['log', '-p', '-U0', '--cc', range]).length / 1e6;
const name = process.env.BENCH_REPO
  ? `${repo} ${range} (${git(['rev-parse', '--short', 'HEAD']).toString().trim()})`
  : `generated (${corpus})`;
const loadAfter = loadavg()[0];
const load = `${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after, ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} between rounds`;
printResult({
  name: 'history',
  line: [
    `scan --history, ${name}: ${count} commits (${merges} merges), ${patchMb.toFixed(1)} MB of -U0 --cc patch ` +
      `(median of ${rounds}, load ${load})`,
    `  CPU: tollgate ${ours.cpu.toFixed(2)} s vs git log -p ${plain.cpu.toFixed(2)} s = ${(ours.cpu / plain.cpu).toFixed(2)}× (target ≤ 1.2×)`,
    // That git runs rename detection on every commit and merge (as `git log -p` does); tollgate's own pass does not
    // (the few commits that may hold a rename are read again with it), so its floor is the next line's, not this one.
    `       vs git log -p -U0 --cc ${cc.cpu.toFixed(2)} s = ${(ours.cpu / cc.cpu).toFixed(2)}× (that git alone, ` +
      `renames detected everywhere: ${(cc.cpu / plain.cpu).toFixed(2)}× git log -p)`,
    `  where it goes, × git log -p's CPU: tollgate's own git log pass ${share(ownGitCpu)}×, start-up (empty range) ` +
      `${share(startUpCpu)}×, reading and scanning the commits ${share(ours.cpu - ownGitCpu - startUpCpu)}× ` +
      `(floor without any scanning: ${share(ownGitCpu + startUpCpu)}×)`,
    `  its git processes (one run with each timed), × git log -p's CPU: log ${share(passCpu.log)}×, rename pass ` +
      `${share(passCpu.renames)}×, cat-file ${share(passCpu.catFile)}×, others ${share(passCpu.other)}×; Node's own ` +
      `${share(ours.cpu - allGitCpu)}×, of which start-up ${share(startUpCpu)}× and reading and scanning ` +
      `${share(ours.cpu - allGitCpu - startUpCpu)}×`,
    `  wall: tollgate ${ours.seconds.toFixed(2)} s vs git log -p ${plain.seconds.toFixed(2)} s = ${(ours.seconds / plain.seconds).toFixed(2)}×`,
    `  peak RSS ${peak.toFixed(0)} MiB (target ≤ 256 MiB)`,
    ...(other.length > 0
      ? [
          `  ${process.env.BENCH_OTHER}: CPU ${med(other, 'cpu').toFixed(2)} s = ` +
            `${(med(other, 'cpu') / plain.cpu).toFixed(2)}× git log -p, wall ${med(other, 'seconds').toFixed(2)} s`,
        ]
      : []),
  ].join('\n'),
  values: {
    repo: name,
    commits: count,
    merges,
    patchMb,
    load: loads,
    loadBefore,
    loadAfter,
    cpuSeconds: ours.cpu,
    gitCpuSeconds: plain.cpu,
    gitCcCpuSeconds: cc.cpu,
    ownGitCpuSeconds: ownGitCpu,
    startUpCpuSeconds: startUpCpu,
    gitPassCpuSeconds: passCpu,
    cpuRatio: ours.cpu / plain.cpu,
    seconds: ours.seconds,
    gitSeconds: plain.seconds,
    ratio: ours.seconds / plain.seconds,
    peakRssMb: peak,
    ...(other.length > 0 ? { otherCpuSeconds: med(other, 'cpu'), otherCpuRatio: med(other, 'cpu') / plain.cpu } : {}),
  },
});
rmSync(work, { recursive: true, force: true });
