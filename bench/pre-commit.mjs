#!/usr/bin/env node
// What a developer waits for on every commit with tollgate's git hook installed, and what an agent waits for on a
// one-file scan: in a real repository of a few hundred files (this checkout's first 300 tracked files under src/)
// with a one-line staged change, the hook as `tollgate hook install pre-commit` writes it, run by `git commit`.
// Each pair, in turn (the order reversed every pair, so a machine whose speed drifts moves every side alike):
//   - `node -e 0` (Node's own start-up),
//   - `git commit --no-verify` (the commit without the hook),
//   - `git commit` (the hook: `tollgate hook pre-commit`),
//   - `tollgate scan <the staged file> --format json`,
// each commit undone by `git reset --soft HEAD~1`, untimed, so the next one commits the same change. CPU is the whole
// process tree's (git and its hook included; /proc's clock ticks, 10 ms each: read the sums, not one pair), wall the
// parent's clock. Prints the medians, the hook's commit against `node -e 0` and against the commit without it, and
// the scan against `node -e 0`, as ratios of the summed CPU and as medians of the per-pair wall ratios. Each build
// its own TOLLGATE_CACHE_DIR, warmed first.
//
//   npm run build && node bench/pre-commit.mjs [--json] [--runs N] [--staged N] [--against OTHER/bin/tollgate.cjs]
//
// --staged N: a line added to N files (default 1; src/cli/main.ts first, then the repository's first files).
// --against: another build's hook and scan in the same pairs (its own repository), and this build's CPU over it, pair
// by pair (median, range, pairs lower). A report: it exits 0 whatever the figures.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clearMachineStartupCost, exitWithUsageIfAsked, median, printResult } from './measure.mjs';
import { childrenCpuMs, startupSandbox } from './startup-repos.mjs';

exitWithUsageIfAsked(import.meta.url);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const runs = Number(flag('--runs') ?? 12);
const against = flag('--against') && resolve(flag('--against'));
const bin = join(root, 'bin', 'tollgate.cjs');
const CHANGED = 'src/cli/main.ts';
const stagedCount = Number(flag('--staged') ?? 1);

const certificatesNote = clearMachineStartupCost();
if (certificatesNote) console.log(certificatesNote);
const { sandbox, env } = startupSandbox('tollgate-bench-pre-commit-');
const files = execFileSync('git', ['ls-files', 'src'], { cwd: root, encoding: 'utf8' }).split('\n').slice(0, 300);
if (!files.includes(CHANGED)) files.push(CHANGED);
const staged = [CHANGED, ...files.filter((file) => file && file !== CHANGED)].slice(0, stagedCount);

/** A repository of `files`, committed, its hook written by `build` (none without one), a one-line change staged. */
function makeRepo(name, build) {
  const repo = join(sandbox, name);
  const git = (...gitArgs) => execFileSync('git', gitArgs, { cwd: repo, env, stdio: 'pipe' });
  mkdirSync(repo);
  git('init', '-q', '-b', 'main');
  for (const file of files.filter(Boolean)) {
    mkdirSync(dirname(join(repo, file)), { recursive: true });
    copyFileSync(join(root, file), join(repo, file));
  }
  git('add', '-A');
  git('commit', '-q', '--no-verify', '-m', 'initial');
  if (build)
    execFileSync(process.execPath, [build, 'hook', 'install', 'pre-commit'], { cwd: repo, env, stdio: 'pipe' });
  for (const file of staged) execFileSync('sh', ['-c', `echo 'export const staged = 1;' >> '${file}'`], { cwd: repo });
  git('add', '--', ...staged);
  return repo;
}

function time(command, commandArgs, cwd, cacheDir, undo) {
  const childEnv = cacheDir ? { ...env, TOLLGATE_CACHE_DIR: cacheDir } : env;
  const cpuBefore = childrenCpuMs();
  const started = process.hrtime.bigint();
  const result = spawnSync(command, commandArgs, { cwd, env: childEnv, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const cpuMs = childrenCpuMs() - cpuBefore;
  if (result.status !== 0) {
    console.log(`${command} ${commandArgs.join(' ')} in ${cwd}: exit ${result.status}\n${result.stderr.trim()}`);
    process.exit(0);
  }
  if (undo) spawnSync('git', ['reset', '-q', '--soft', 'HEAD~1'], { cwd, env, stdio: 'ignore' });
  return { ms, cpuMs };
}

const builds = [{ name: 'this', bin }, ...(against ? [{ name: 'against', bin: against }] : [])];
for (const build of builds) {
  build.repo = makeRepo(build.name, build.bin);
  build.cache = join(sandbox, `cache-${build.name}`);
}
const plain = makeRepo('no-hook', null);
const sides = [
  { name: 'node', run: () => time(process.execPath, ['-e', '0'], plain) },
  { name: 'commitNoHook', run: () => time('git', ['commit', '-q', '--no-verify', '-m', 'x'], plain, null, true) },
  ...builds.flatMap((build) => [
    {
      name: `commit-${build.name}`,
      run: () => time('git', ['commit', '-q', '-m', 'x'], build.repo, build.cache, true),
    },
    {
      name: `scan-${build.name}`,
      run: () => time(process.execPath, [build.bin, 'scan', CHANGED, '--format', 'json'], build.repo, build.cache),
    },
  ]),
];
for (const side of sides) for (let warm = 0; warm < 2; warm++) side.run();
const loadBefore = loadavg()[0];
const samples = Object.fromEntries(sides.map((side) => [side.name, []]));
for (let pair = 0; pair < runs; pair++)
  for (const side of pair % 2 === 0 ? sides : [...sides].reverse()) samples[side.name].push(side.run());
const loadAfter = loadavg()[0];

const sum = (list, key) => list.reduce((total, sample) => total + sample[key], 0);
const cpu = (over, under) => sum(samples[over], 'cpuMs') / sum(samples[under], 'cpuMs');
const wall = (over, under) => median(samples[over].map((sample, index) => sample.ms / samples[under][index].ms));
const medians = (name) => ({
  cpuMs: median(samples[name].map((sample) => sample.cpuMs)),
  ms: median(samples[name].map((sample) => sample.ms)),
});
console.log(
  `${runs} pairs, ${staged.length} staged file${staged.length === 1 ? '' : 's'}, load ${loadBefore.toFixed(2)} -> ${loadAfter.toFixed(2)}`,
);
const values = { runs, staged: staged.length, loadBefore, loadAfter };
for (const side of sides) {
  values[side.name] = medians(side.name);
  console.log(
    `  ${side.name}: CPU ${values[side.name].cpuMs.toFixed(0)} ms, wall ${values[side.name].ms.toFixed(0)} ms (medians)`,
  );
}
for (const build of builds) {
  const ratios = {
    commitOverNode: { cpu: cpu(`commit-${build.name}`, 'node'), wall: wall(`commit-${build.name}`, 'node') },
    commitOverNoHook: {
      cpu: cpu(`commit-${build.name}`, 'commitNoHook'),
      wall: wall(`commit-${build.name}`, 'commitNoHook'),
    },
    scanOverNode: { cpu: cpu(`scan-${build.name}`, 'node'), wall: wall(`scan-${build.name}`, 'node') },
  };
  values[`ratios-${build.name}`] = ratios;
  const text = (ratio) => `CPU ${ratio.cpu.toFixed(2)}x, wall ${ratio.wall.toFixed(2)}x`;
  console.log(
    `${build.name === 'this' ? 'this build' : against}: git commit with the hook ${text(ratios.commitOverNode)} node -e 0, ${text(ratios.commitOverNoHook)} git commit --no-verify; scan <one file> ${text(ratios.scanOverNode)} node -e 0`,
  );
}
if (against) {
  for (const what of ['commit', 'scan']) {
    const ratios = samples[`${what}-this`].map(
      (sample, index) => sample.cpuMs / samples[`${what}-against`][index].cpuMs,
    );
    const sorted = [...ratios].sort((a, b) => a - b);
    const lower = ratios.filter((ratio) => ratio < 1).length;
    const summed = cpu(`${what}-this`, `${what}-against`);
    values[`${what}CpuOverAgainst`] = { summed, median: median(ratios), min: sorted[0], max: sorted.at(-1), lower };
    console.log(
      `${what}: this build's CPU over --against's: ${summed.toFixed(3)} summed; pair by pair median ${median(ratios).toFixed(3)} (${sorted[0].toFixed(3)}-${sorted.at(-1).toFixed(3)}), lower in ${lower} of ${runs}`,
    );
  }
}
printResult({ name: 'pre-commit', line: '', values });
