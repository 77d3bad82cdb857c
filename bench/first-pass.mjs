#!/usr/bin/env node
// What a scanning thread pays the first time it meets its content: one process builds the scanner from the built
// dist/ and scans the corpus twice, the same files in the same order (largest first, as the disk queue takes them,
// read through `scanQueue` and its reused buffer), and prints each pass's CPU (the whole process: V8's compiling
// threads included) and wall time, and the CPU of each piece of about a quarter of the bytes. The second pass meets code V8 has
// optimized, regular expressions compiled and the heap grown: the first pass's excess over it is the first-time cost.
// Bundled as the CLI is or not, the scanner's code is the same; the bin's V8 flag for a scan is given here too.
//
//   npm run build && node --max-inlined-bytecode-size-cumulative=300 bench/first-pass.mjs [DIR] [MB] [--passes N] [--dist DIR]
//
// DIR defaults to bench/.cache/text; MB limits the bytes (the largest files first); `--dist` scans with another
// build's dist/ (one whose node_modules resolve). Split a `perf record -k CLOCK_MONOTONIC` of it by the `mark` lines
// (process.hrtime, the same clock) to see what each pass's threads run.
import { statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exitWithUsageIfAsked, listCorpusFiles } from './measure.mjs';

exitWithUsageIfAsked(import.meta.url);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const positional = args.filter((arg, index) => !arg.startsWith('--') && !args[index - 1]?.startsWith('--'));
const dir = resolve(positional[0] ?? join(root, 'bench/.cache/text'));
const limit = Number(positional[1] ?? Number.POSITIVE_INFINITY) * 1e6;
const passes = Number(flag('--passes') ?? 2);
const dist = resolve(flag('--dist') ?? join(root, 'dist'));

const { builtinRules } = await import(join(dist, 'secrets/rules/index.js'));
const { SecretScanner } = await import(join(dist, 'secrets/scanner.js'));
const { scanQueue } = await import(join(dist, 'secrets/disk-queue.js'));

const listed = listCorpusFiles(dir).map((absolute) => ({
  path: relative(dir, absolute),
  absolute,
  size: statSync(absolute).size,
}));
listed.sort((a, b) => b.size - a.size || (a.path < b.path ? -1 : 1));
// Files up to the stream size (16 MB) only, so every file is read whole as most are; up to `limit` bytes in all.
const files = [];
let total = 0;
for (const file of listed) {
  if (file.size > 16_000_000 || total + file.size > limit) continue;
  files.push(file);
  total += file.size;
}
const scanner = new SecretScanner(builtinRules);
const seconds = (usage) => (usage.user + usage.system) / 1e6;
console.log(`${files.length} files, ${(total / 1e6).toFixed(1)} MB; load ${loadavg()[0].toFixed(2)}`);

for (let pass = 1; pass <= passes; pass++) {
  const quarters = [];
  let findings = 0;
  const started = performance.now();
  const passCpu = process.cpuUsage();
  console.log(`mark pass${pass} start ${process.hrtime.bigint()}`);
  for (let from = 0, bytes = 0, at = 0; at < files.length; at++) {
    bytes += files[at].size;
    if (bytes * 4 < total * (quarters.length + 1) && at < files.length - 1) continue;
    const cpu = process.cpuUsage();
    const outcome = scanQueue(files.slice(from, at + 1), new BigInt64Array(new SharedArrayBuffer(8)), { scanner }, () =>
      Promise.resolve(null),
    );
    quarters.push(seconds(process.cpuUsage(cpu)).toFixed(3));
    findings += outcome.findings.length;
    from = at + 1;
  }
  console.log(`mark pass${pass} end ${process.hrtime.bigint()}`);
  const cpu = seconds(process.cpuUsage(passCpu)).toFixed(3);
  const wall = ((performance.now() - started) / 1000).toFixed(3);
  console.log(
    `pass ${pass}: CPU ${cpu} s, wall ${wall} s, ${findings} findings; CPU per piece of about a quarter of the bytes ${quarters.join(' ')}`,
  );
}
console.log(`load ${loadavg()[0].toFixed(2)}`);
