#!/usr/bin/env node
// The stamp's evidence (src/core/run/stamp-evidence.ts) on a repository of N committed files (20 to a folder): the
// stop hook and the repeat `tollgate run`, answered with the saved evidence (no git) against the same build with the
// evidence file moved away (git asked), in turn, the median of the pairs' wall ratios and the ratio of the summed CPU
// of the whole process trees. With --against another build's bin/tollgate.cjs, this build against that one instead,
// in the same repository (what a large tree, where no evidence is kept, costs against the build before).
//
//   npm run build && node bench/stamp-evidence.mjs [--files N] [--runs N] [--against OTHER/bin/tollgate.cjs]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exitWithUsageIfAsked, median } from './measure.mjs';
import { childrenCpuMs, startupSandbox, stopPayloadFor } from './startup-repos.mjs';

exitWithUsageIfAsked(import.meta.url);

const args = process.argv.slice(2);
const flag = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const files = Number(flag('--files', 200));
const runs = Number(flag('--runs', 12));
const against = flag('--against', null);
const bin = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'tollgate.cjs');

const { sandbox, env } = startupSandbox('tollgate-bench-evidence-');
const repo = join(sandbox, 'repo');
mkdirSync(repo);
const git = (...gitArgs) => spawnSync('git', gitArgs, { cwd: repo, env, encoding: 'utf8' });
git('init', '-q', '-b', 'main');
for (let index = 0; index < files; index++) {
  const dir = join(repo, 'src', `m${Math.floor(index / 20)}`);
  if (index % 20 === 0) mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `f${index}.ts`), `export const v${index} = ${index};\n`);
}
writeFileSync(join(repo, 'tollgate.config.yaml'), 'checks:\n  - name: ok\n    run: "true"\n');
git('add', '-A');
git('commit', '-q', '-m', 'initial');

function time(build, commandArgs, input) {
  const cpuBefore = childrenCpuMs();
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [build, ...commandArgs], { cwd: repo, env, input, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${commandArgs.join(' ')} exited ${result.status}: ${result.stderr}`);
  return { ms, cpuMs: childrenCpuMs() - cpuBefore };
}

const payload = stopPayloadFor(repo);
// A pass, past git's racy-clean window, then the runs that save the stamps and the evidence.
time(bin, ['run']);
await new Promise((resolveSleep) => setTimeout(resolveSleep, 2100));
for (const build of against ? [bin, against] : [bin]) {
  for (let warm = 0; warm < 2; warm++) {
    time(build, ['run']);
    time(build, ['hook', 'stop'], payload);
  }
}
const evidence = join(repo, '.tollgate', 'stamp-evidence.json');
const kept = existsSync(evidence);
const loadBefore = loadavg()[0];
console.log(`${files} files: evidence ${kept ? 'kept' : 'not kept (git answers)'}`);
for (const [label, commandArgs, input] of [
  ['stop hook', ['hook', 'stop'], payload],
  ['repeat run', ['run'], undefined],
]) {
  const ours = [];
  const theirs = [];
  for (let index = 0; index < runs; index++) {
    ours.push(time(bin, commandArgs, input));
    if (against) theirs.push(time(against, commandArgs, input));
    else if (kept) {
      renameSync(evidence, `${evidence}.away`);
      theirs.push(time(bin, commandArgs, input));
      renameSync(`${evidence}.away`, evidence);
    }
  }
  if (theirs.length === 0) continue;
  const wall = median(ours.map((sample, index) => sample.ms / theirs[index].ms));
  const sum = (samples) => samples.reduce((total, sample) => total + sample.cpuMs, 0);
  const other = against ? 'the other build' : 'without the evidence';
  console.log(
    `${label}: ${median(ours.map((s) => s.ms)).toFixed(1)} ms against ${median(theirs.map((s) => s.ms)).toFixed(1)} ms ${other}; ` +
      `wall ${wall.toFixed(2)}x, CPU ${(sum(ours) / sum(theirs)).toFixed(2)}x (median of ${runs} pairs; summed CPU)`,
  );
}
console.log(`load average (1 min) ${loadBefore.toFixed(2)} before, ${loadavg()[0].toFixed(2)} after`);
rmSync(sandbox, { recursive: true, force: true });
