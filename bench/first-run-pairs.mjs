// Two builds' (or two sets of Node flags') first runs in turn: `tollgate run --only checks,secrets --format json` on
// the 20k-file repository, its .tollgate/ removed before each run, A then B then B then A…, each side warmed once (its
// own code cache). Per pair the ratio B/A of the wall time and of the CPU (user + system of the whole process tree,
// `/usr/bin/time`); prints the medians of the ratios, their ranges and in how many pairs B was lower, the medians of
// each side's CPU, and the load before and after.
//
//   npm run build && node bench/first-run-pairs.mjs --against OTHER/bin/tollgate.cjs [--runs N] [--repo DIR]
//   node bench/first-run-pairs.mjs --flags-a '' --flags-b '--interrupt-budget=1000000' [--runs N]
//
// A is --against (default: this build), B this build; --flags-a / --flags-b are Node flags for each side. The
// repository is the one `node bench/change-set.mjs --only 20k` generated under os.tmpdir() (run that first), or --repo.
// A report: it exits 0 whatever the figures, 2 when it cannot measure.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { changeSetBenchDir, exitWithUsageIfAsked, generatedRepo20k, median, privateGitEnv } from './measure.mjs';

exitWithUsageIfAsked(import.meta.url);

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const flag = (name) => (args.indexOf(name) === -1 ? null : args[args.indexOf(name) + 1]);
const runs = Number(flag('--runs') ?? 10);
const self = join(here, '..', 'bin', 'tollgate.cjs');
const sides = [
  { bin: flag('--against') ?? self, flags: (flag('--flags-a') ?? '').split(' ').filter(Boolean) },
  { bin: self, flags: (flag('--flags-b') ?? '').split(' ').filter(Boolean) },
];
const benchDir = changeSetBenchDir;
const repo = generatedRepo20k('first-run-pairs', flag('--repo'));

const work = mkdtempSync(join(tmpdir(), 'tollgate-bench-pairs-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const home = join(benchDir, 'home');
const env = privateGitEnv(home);
for (const key of ['NODE_EXTRA_CA_CERTS', 'NODE_OPTIONS']) delete env[key];
for (const name of ['ADVISORIES', 'STATIC_ANALYSIS', 'CODE_REVIEW']) env[`TOLLGATE_USE_${name}`] = '0';

/** One first run of a side: wall seconds and CPU seconds of the whole tree. */
function firstRun(side, index) {
  rmSync(join(repo, '.tollgate'), { recursive: true, force: true });
  const times = join(work, 'time');
  const result = spawnSync(
    '/usr/bin/time',
    ['-f', '%e %U %S', '-o', times, process.execPath, ...side.flags, side.bin, 'run', '--only', 'checks,secrets'],
    { cwd: repo, env: { ...env, TOLLGATE_CACHE_DIR: join(work, `cache-${index}`) }, encoding: 'utf8' },
  );
  if (result.status !== 0) {
    console.error(`first-run-pairs: ${side.bin} exited ${result.status}: ${result.stderr.slice(-400)}`);
    process.exit(2);
  }
  const [wall, user, sys] = readFileSync(times, 'utf8').trim().split(/\s+/).map(Number);
  return { wall, cpu: user + sys };
}

const loadBefore = loadavg()[0];
for (const [index, side] of sides.entries()) firstRun(side, index); // warm-up: page cache, each side's code cache
const pairs = [];
for (let pair = 0; pair < runs; pair++) {
  const order = pair % 2 === 0 ? [0, 1] : [1, 0];
  const got = [];
  for (const index of order) got[index] = firstRun(sides[index], index);
  pairs.push(got);
}
const loadAfter = loadavg()[0];
const describe = (side) => [side.bin, ...side.flags].join(' ');
/** The median of the pairs' ratios B/A, their range, and in how many pairs B was lower. */
const ratios = (of) => {
  const each = pairs.map(([a, b]) => of(b) / of(a));
  const lower = each.filter((ratio) => ratio < 1).length;
  return `${median(each).toFixed(3)}x (${Math.min(...each).toFixed(3)}-${Math.max(...each).toFixed(3)}, lower in ${lower})`;
};
console.log(
  `first run, B (${describe(sides[1])}) against A (${describe(sides[0])}), ${runs} pairs: ` +
    `${ratios((run) => run.wall)} the wall, ${ratios((run) => run.cpu)} the CPU ` +
    `(median CPU ${median(pairs.map(([a]) => a.cpu)).toFixed(2)} s against ${median(pairs.map(([, b]) => b.cpu)).toFixed(2)} s); ` +
    `load ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after`,
);
