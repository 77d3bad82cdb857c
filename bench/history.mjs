#!/usr/bin/env node
// `tollgate scan --history` against `git log -p > /dev/null` on the same repository, interleaved, with each run's peak
// memory. Targets: ≤ 1.0× the time of git log -p, ≤ 256 MiB.
//
// By default the repository is generated (5,000 commits, about 360 MB of patch: long lines, so git's diffs dominate).
// BENCH_REPO=<path> times a real repository instead (its HEAD; BENCH_RANGE=<range> for another range).
// BENCH_COMMITS sets the generated repository's commits, BENCH_ROUNDS the rounds (default 5).
//
// Two baselines are printed: `git log -p` (what the target names) and `git log -p -U0 --no-merges` (the least git
// itself must do to list the added lines; tollgate also asks for merges' own lines, `--cc`).
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, printResult } from './measure.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const commits = Number(process.env.BENCH_COMMITS ?? 5000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const work = mkdtempSync(join(tmpdir(), 'tollgate-bench-history-'));
const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', HOME: work };
const repo = process.env.BENCH_REPO ? resolve(process.env.BENCH_REPO) : join(work, 'repo');
const range = process.env.BENCH_RANGE ?? (process.env.BENCH_REPO ? 'HEAD' : 'main');

/** The fast-import stream, written to a file commit by commit (a long history does not fit in one string). */
function writeFastImport(path) {
  const out = openSync(path, 'w');
  const files = new Map();
  for (let i = 0; i < commits; i++) {
    const file = `src/f${i % 40}.txt`;
    const lines = files.get(file) ?? [];
    lines.push(`${`line ${i} `.repeat(4000).slice(0, 36_000)}`);
    if (lines.length > 3) lines.shift();
    files.set(file, lines);
    const content = `${lines.join('\n')}\n`;
    writeSync(
      out,
      `commit refs/heads/main\ncommitter Bench <b@example.invalid> ${1_700_000_000 + i} +0000\ndata 3\nmsg\n` +
        `M 100644 inline ${file}\ndata ${Buffer.byteLength(content)}\n${content}\n`,
    );
  }
  closeSync(out);
}

if (!process.env.BENCH_REPO) {
  spawnSync('git', ['init', '-q', '-b', 'main', repo], { env });
  const stream = join(work, 'fast-import');
  writeFastImport(stream);
  const imported = spawnSync('sh', ['-c', 'git fast-import --quiet < "$1"', 'sh', stream], { cwd: repo, env });
  if (imported.status !== 0) throw new Error(`git fast-import: ${imported.stderr}`);
  rmSync(stream);
}

const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
/** Wall time and peak RSS of one run, its output to /dev/null. */
function measure(command, args) {
  const started = performance.now();
  const result = timeBin
    ? spawnSync(timeBin, ['-f', '%M', command, ...args], { cwd: repo, env, stdio: ['ignore', 'ignore', 'pipe'] })
    : spawnSync(command, args, { cwd: repo, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const seconds = (performance.now() - started) / 1000;
  const rssKb = timeBin ? Number(result.stderr.toString().trim().split('\n').pop()) : Number.NaN;
  return { seconds, rssMb: rssKb / 1024 };
}

const gitPlain = [];
const gitAdded = [];
const tollgate = [];
for (let round = 0; round < rounds; round++) {
  gitPlain.push(measure('git', ['log', '-p', range]));
  tollgate.push(
    measure(process.execPath, [join(root, 'bin/tollgate.cjs'), 'scan', '--history', range, '--format', 'json']),
  );
  gitAdded.push(measure('git', ['log', '-p', '-U0', '--no-color', '--no-merges', range]));
}
const plainSeconds = median(gitPlain.map((run) => run.seconds));
const addedSeconds = median(gitAdded.map((run) => run.seconds));
const ourSeconds = median(tollgate.map((run) => run.seconds));
const peak = Math.max(...tollgate.map((run) => run.rssMb));
const count = Number(spawnSync('git', ['rev-list', '--count', range], { cwd: repo, env }).stdout);
const patchMb = spawnSync('sh', ['-c', `git log -p -U0 ${range} | wc -c`], { cwd: repo, env }).stdout / 1e6;
const name = process.env.BENCH_REPO ? `${repo} ${range}` : 'generated';
printResult({
  name: 'history',
  line: [
    `scan --history, ${name}: ${count} commits, ${patchMb.toFixed(0)} MB of -U0 patch (median of ${rounds}, load ${loadavg()[0].toFixed(1)})`,
    `  tollgate ${ourSeconds.toFixed(2)} s vs git log -p ${plainSeconds.toFixed(2)} s = ${(ourSeconds / plainSeconds).toFixed(2)}× (target ≤ 1.0×)`,
    `  vs git log -p -U0 --no-merges ${addedSeconds.toFixed(2)} s = ${(ourSeconds / addedSeconds).toFixed(2)}×`,
    `  peak RSS ${peak.toFixed(0)} MiB (target ≤ 256 MiB)`,
  ].join('\n'),
  values: {
    repo: name,
    commits: count,
    patchMb,
    seconds: ourSeconds,
    gitSeconds: plainSeconds,
    gitAddedSeconds: addedSeconds,
    ratio: ourSeconds / plainSeconds,
    ratioAdded: ourSeconds / addedSeconds,
    peakRssMb: peak,
  },
});
rmSync(work, { recursive: true, force: true });
