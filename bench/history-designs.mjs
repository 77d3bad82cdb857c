#!/usr/bin/env node
// What another design of `scan --history` would cost, measured before it is built (the target: ≤ 1.2× `git log -p`).
// Today one `git log -p -U0 --cc` hands over every commit's added lines. The design measured here lets git list the
// changes without diffing (`git log --raw -c`), reads each new blob once (`git cat-file --batch`, de-duplicated by
// id), scans the whole blob as the prefilter, and asks git for the real added lines only of blobs that hold a
// candidate. It prints, for one repository and range:
//   - git's CPU for each pass (least of BENCH_ROUNDS alternating runs): `git log -p` (the anchor), tollgate's log
//     pass, the raw listing, the `cat-file` of the new blobs;
//   - the bytes each design scans: the targets today's reading hands the scanner (`historyBatches`, as
//     bench/history-targets.mjs reads them) against the distinct new blobs;
//   - the candidates among the new blobs, by two tests, and Node's CPU for each: `SecretScanner.mayFind` (a keyword
//     hit whose rule's gate passes: without one the scan finds nothing) and a whole scan (`scanText`, any finding);
//   - git's CPU to read the added lines again for the commits and paths of the candidates (`mayFind`'s).
//
//   npm run build && node bench/history-designs.mjs <repository> <range>
//   BENCH_ROUNDS=3 node bench/history-designs.mjs bench/.cache/rails-worktree v7.2.0..v8.0.0
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { assertSourceHistory, exitWithUsageIfAsked, printResult } from './measure.mjs';

exitWithUsageIfAsked(import.meta.url);
// After the usage check: `--help` needs no build.
const { keptHeapEnv } = await import('../dist/core/kept-heap-env.js');
const { builtinRules } = await import('../dist/secrets/rules/index.js');
const { SecretScanner } = await import('../dist/secrets/scanner.js');
const { historyBatches } = await import('../dist/secrets/sources/git-sources.js');

const [repoArg, range] = process.argv.slice(2);
if (!repoArg || !range) {
  console.error('usage: node bench/history-designs.mjs <repository> <range>');
  process.exit(2);
}
const repo = resolve(repoArg);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
const kept = keptHeapEnv(env);
assertSourceHistory(repo, range, env);

/** CPU (user + system) of one git run, its output to /dev/null. */
function gitCpu(args, { input, heap = true } = {}) {
  const run = spawnSync('/usr/bin/time', ['-f', '%U %S', 'git', ...args], {
    cwd: repo,
    env: heap ? kept : env,
    input,
    stdio: [input === undefined ? 'ignore' : 'pipe', 'ignore', 'pipe'],
    maxBuffer: 1 << 30,
  });
  const [user, system] = run.stderr.toString().trim().split('\n').pop().split(' ').map(Number);
  return user + system;
}
const gitOut = (args, input) => spawnSync('git', args, { cwd: repo, env, input, maxBuffer: 1 << 30 }).stdout;

const tail = ['--full-index', '--no-abbrev', '--no-color', '--format=%x00commit %H'];
const pass = ['-c', 'core.quotePath=false', 'log', '-p', '-U0', '--cc', '--no-renames', '--raw'];
const passArgs = [...pass, ...tail, '--no-ext-diff', '--no-textconv', range, '--'];
const listArgs = ['-c', 'core.quotePath=false', 'log', '--raw', '-c', '--no-renames', ...tail, range, '--'];

// Every changed file's new blob, by commit: a regular file or a symbolic link (a submodule's commit is no blob here).
const changes = [];
let commit = null;
for (const line of gitOut(listArgs).toString('utf8').split('\n')) {
  if (line.startsWith('\0commit ')) commit = line.slice(8);
  if (!line.startsWith(':')) continue;
  const tab = line.indexOf('\t');
  const fields = line.slice(0, tab).split(' ');
  const parents = line.match(/^:+/)[0].length;
  const mode = fields[parents];
  const blob = fields[2 * parents + 1];
  if (/^0+$/.test(blob) || mode === '160000') continue;
  changes.push({ commit, path: line.slice(tab + 1), blob });
}
const ids = [...new Set(changes.map((change) => change.blob))];
const batchInput = `${ids.join('\n')}\n`;

const cpu = { anchor: [], pass: [], list: [], catFile: [] };
const loadBefore = loadavg()[0];
for (let round = 0; round < rounds; round++) {
  cpu.anchor.push(gitCpu(['log', '-p', range], { heap: false }));
  cpu.pass.push(gitCpu(passArgs));
  cpu.list.push(gitCpu(listArgs));
  cpu.catFile.push(gitCpu(['cat-file', '--batch'], { input: batchInput }));
}
const least = (list) => Math.min(...list);

// The blobs, read once, then the two candidate tests over their decoded text.
const blobs = new Map();
const whole = gitOut(['cat-file', '--batch'], batchInput);
for (let at = 0; at < whole.length; ) {
  const nl = whole.indexOf(10, at);
  const [id, , size] = whole.toString('latin1', at, nl).split(' ');
  blobs.set(id, whole.subarray(nl + 1, nl + 1 + Number(size)));
  at = nl + 1 + Number(size) + 1;
}
const pathOf = new Map();
for (const change of changes) if (!pathOf.has(change.blob)) pathOf.set(change.blob, change.path);
const scanner = new SecretScanner(builtinRules);
const nodeCpu = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1e6;
};
/** Node's CPU for one pass of `test` over every blob (the second of two: V8 warm), and the blobs it keeps. */
function candidates(test) {
  let kept = [];
  let seconds = 0;
  for (let pass = 0; pass < 2; pass++) {
    kept = [];
    const started = nodeCpu();
    for (const [id, bytes] of blobs) if (test(bytes.toString('utf8'), pathOf.get(id))) kept.push(id);
    seconds = nodeCpu() - started;
  }
  return { ids: new Set(kept), bytes: kept.reduce((sum, id) => sum + blobs.get(id).length, 0), seconds };
}
const gated = candidates((text, path) => scanner.mayFind(text, path));
const found = candidates((text, path) => scanner.scanText(text, { path }).length > 0);

// The added lines read again: the commits that hold a candidate, whole. (Limited to the candidates' paths, after `--`
// on stdin, git matched hundreds of pathspecs against every tree entry: rails v7.2.0..v8.0.0 3.6× `git log -p`.)
const again = changes.filter((change) => gated.ids.has(change.blob));
const againCommits = new Set(again.map((change) => change.commit));
const againArgs = [...pass, ...tail, '--no-ext-diff', '--no-textconv', '--no-walk=unsorted', '--stdin'];
const againCpu = least(
  Array.from({ length: rounds }, () => gitCpu(againArgs, { input: `${[...againCommits].join('\n')}\n` })),
);

// Today's targets: what the history reading hands the scanner (added lines, binary files, messages).
let targets = 0;
let targetBytes = 0;
for await (const batch of historyBatches({ repoRoot: repo, range, env })) {
  for (const target of batch) {
    targets++;
    targetBytes += target.skip ? 0 : ((await target.read())?.length ?? 0);
  }
}
const blobBytes = [...blobs.values()].reduce((sum, bytes) => sum + bytes.length, 0);
const anchor = least(cpu.anchor);
const x = (seconds) => `${seconds.toFixed(2)} s (${(seconds / anchor).toFixed(2)}×)`;
const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
printResult({
  name: 'history-designs',
  line: [
    `history designs, ${repo} ${range} (least of ${rounds} runs, load ${loadBefore.toFixed(1)} before, ` +
      `${loadavg()[0].toFixed(1)} after; × git log -p's CPU)`,
    `  git: log -p ${anchor.toFixed(2)} s; tollgate's log pass ${x(least(cpu.pass))}; ` +
      `raw listing ${x(least(cpu.list))}, cat-file of ${ids.length} new blobs ${x(least(cpu.catFile))}`,
    `  bytes scanned: today ${targets} targets, ${mb(targetBytes)}; the new blobs ${mb(blobBytes)} ` +
      `(${changes.length} changed files, ${ids.length} distinct blobs)`,
    `  candidates by mayFind: ${gated.ids.size} blobs, ${mb(gated.bytes)}, Node ${x(gated.seconds)} warm; ` +
      `by a whole scan: ${found.ids.size} blobs, ${mb(found.bytes)}, Node ${x(found.seconds)} warm`,
    `  the added lines read again for mayFind's candidates: ${again.length} files in ${againCommits.size} commits, ` +
      `git ${x(againCpu)}`,
  ].join('\n'),
  values: {
    repo,
    range,
    anchor,
    pass: least(cpu.pass),
    list: least(cpu.list),
    catFile: least(cpu.catFile),
    again: againCpu,
    targets,
    targetBytes,
    blobBytes,
    gated: { blobs: gated.ids.size, bytes: gated.bytes, seconds: gated.seconds },
    found: { blobs: found.ids.size, bytes: found.bytes, seconds: found.seconds },
  },
});
