#!/usr/bin/env node
// `tollgate run` on a repository with no changes: target under 150 ms wall on this machine, printed next to
// `node -e 0` (the floor any Node CLI pays) measured in the same run.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exitWithUsageIfAsked, median, printResult } from './measure.mjs';

exitWithUsageIfAsked(import.meta.url);

const bin = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'tollgate.cjs');
const sandbox = mkdtempSync(join(tmpdir(), 'tollgate-bench-run-'));
const repo = join(sandbox, 'repo');
const home = join(sandbox, 'home');
mkdirSync(repo);
mkdirSync(home);
writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = Bench\n\temail = bench@example.invalid\n');
const env = { ...process.env, HOME: home, GIT_CONFIG_GLOBAL: join(home, '.gitconfig'), GIT_CONFIG_NOSYSTEM: '1' };
const git = (...args) => spawnSync('git', args, { cwd: repo, env, encoding: 'utf8' });

for (let index = 0; index < 200; index++) {
  mkdirSync(join(repo, 'src', String(index % 10)), { recursive: true });
  writeFileSync(join(repo, 'src', String(index % 10), `file${index}.ts`), `export const value${index} = ${index};\n`);
}
writeFileSync(join(repo, 'tollgate.config.yaml'), 'checks:\n  - name: unit\n    run: "true"\n');
git('init', '-q', '-b', 'main');
git('add', '-A');
git('commit', '-q', '-m', 'initial');

function time(command, args, cwd) {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0 && command !== 'node')
    throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return ms;
}

const runs = Number(process.env.BENCH_RUNS ?? 15);
time(process.execPath, [bin, 'run'], repo); // warm the file cache
const floor = [];
const ours = [];
for (let index = 0; index < runs; index++) {
  floor.push(time(process.execPath, ['-e', '0'], repo));
  ours.push(time(process.execPath, [bin, 'run'], repo));
}
rmSync(sandbox, { recursive: true, force: true });
printResult({
  name: 'run-no-changes',
  line: `tollgate run, no changes: ${median(ours).toFixed(0)} ms (target < 150 ms) vs node -e 0 ${median(floor).toFixed(0)} ms = ${(median(ours) / median(floor)).toFixed(2)}x the floor`,
  values: { oursMs: median(ours), floorMs: median(floor), targetMs: 150, met: median(ours) < 150 },
});
