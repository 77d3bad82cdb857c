#!/usr/bin/env node
// `tollgate scan --history` against `git log -p -U0 > /dev/null` on the same generated repository (5,000 commits,
// about 360 MB of patch), interleaved, with each run's peak memory. Targets: ≤ 1.0× the time of git log, ≤ 256 MiB.
// BENCH_COMMITS sets the number of commits.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, printResult } from './measure.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const commits = Number(process.env.BENCH_COMMITS ?? 5000);
const work = mkdtempSync(join(tmpdir(), 'tollgate-bench-history-'));
const repo = join(work, 'repo');
const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', HOME: work };

function fastImportStream() {
  const files = new Map();
  const parts = [];
  for (let i = 0; i < commits; i++) {
    const file = `src/f${i % 40}.txt`;
    const lines = files.get(file) ?? [];
    lines.push(`${`line ${i} `.repeat(4000).slice(0, 36_000)}`);
    if (lines.length > 3) lines.shift();
    files.set(file, lines);
    const content = `${lines.join('\n')}\n`;
    parts.push(
      `commit refs/heads/main\ncommitter Bench <b@example.invalid> ${1_700_000_000 + i} +0000\ndata 3\nmsg\n`,
      `M 100644 inline ${file}\ndata ${Buffer.byteLength(content)}\n${content}\n`,
    );
  }
  return parts.join('');
}

spawnSync('git', ['init', '-q', '-b', 'main', repo], { env });
const imported = spawnSync('git', ['fast-import', '--quiet'], { cwd: repo, env, input: fastImportStream() });
if (imported.status !== 0) throw new Error(`git fast-import: ${imported.stderr}`);

const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
function measure(command, args) {
  const started = performance.now();
  const result = timeBin
    ? spawnSync(timeBin, ['-f', '%M', command, ...args], { cwd: repo, env, stdio: ['ignore', 'ignore', 'pipe'] })
    : spawnSync(command, args, { cwd: repo, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const seconds = (performance.now() - started) / 1000;
  const rssKb = timeBin ? Number(result.stderr.toString().trim().split('\n').pop()) : Number.NaN;
  return { seconds, rssMb: rssKb / 1024 };
}

const git = [];
const tollgate = [];
for (let round = 0; round < 3; round++) {
  git.push(measure('git', ['log', '-p', '-U0', '--no-color', '--no-merges', 'main']));
  tollgate.push(
    measure(process.execPath, [join(root, 'bin/tollgate.cjs'), 'scan', '--history', 'main', '--format', 'json']),
  );
}
const gitSeconds = median(git.map((run) => run.seconds));
const ourSeconds = median(tollgate.map((run) => run.seconds));
const peak = Math.max(...tollgate.map((run) => run.rssMb));
const patchMb = spawnSync('sh', ['-c', 'git log -p -U0 main | wc -c'], { cwd: repo, env }).stdout / 1e6;
printResult({
  name: 'history',
  line: `scan --history, ${commits} commits (${patchMb.toFixed(0)} MB of patch): ${ourSeconds.toFixed(2)} s vs git log -p ${gitSeconds.toFixed(2)} s = ${(ourSeconds / gitSeconds).toFixed(2)}× (target ≤ 1.0×); peak RSS ${peak.toFixed(0)} MiB (target ≤ 256 MiB)`,
  values: { commits, patchMb, seconds: ourSeconds, gitSeconds, ratio: ourSeconds / gitSeconds, peakRssMb: peak },
});
rmSync(work, { recursive: true, force: true });
