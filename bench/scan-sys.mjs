#!/usr/bin/env node
// Where a scan's CPU goes besides the scanner's own work: `tollgate scan --all` beside two floors that touch the same
// files, each a separate `node` process measured by getrusage (bench/rusage.mjs), paired run by run:
//   read            every file read into one reused buffer (what any scanner must at least do)
//   read + decode   the same, each file then turned into a string by the scan's own `decodeText`
// It prints user and sys CPU, minor page faults, voluntary context switches and peak RSS, and the scan's figures over
// the decode floor. Sys time and faults above the floor are the scan's own (its heap, its GC, its listing, its threads);
// those of the floor are what making one string per file costs (fresh pages for every large string).
//
//   node bench/scan-sys.mjs [--runs 3] [--threads 1] [DIR]     DIR: a git work tree, default bench/.cache/text
//
// Needs a build (`npm run build`).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadNow } from './load.mjs';
import { assertSourceCorpus, median, printResult } from './measure.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(`usage: node bench/scan-sys.mjs [--runs N] [--threads N] [DIR]
  user/sys CPU, page faults and context switches of \`tollgate scan --all\` beside reading and decoding the same files
  example: node bench/scan-sys.mjs --runs 3 --threads 1 bench/.cache/text`);
  process.exit(0);
}
const flag = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const runs = Number(flag('--runs', '3'));
const threads = flag('--threads', '1');
const valued = new Set(['--runs', '--threads']);
const dir = resolve(
  args.find((arg, index) => !arg.startsWith('-') && !valued.has(args[index - 1])) ?? join(here, '.cache/text'),
);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`scan-sys: --runs expects a whole number of runs from 1, e.g. --runs 3; got ${flag('--runs')}`);
  process.exit(2);
}
if (!existsSync(join(root, 'dist/bundle/cli/tollgate.cjs'))) {
  console.error('scan-sys: no build to time; run `npm run build` first');
  process.exit(2);
}
assertSourceCorpus(dir, { repository: true });

const preload = pathToFileURL(join(here, 'rusage.mjs')).href;
const decoder = pathToFileURL(join(root, 'dist/secrets/text-decoding.js')).href;
// Both floors list the files as the scan does (git) and read them as its disk queue does (one reused buffer).
const floor = (decode) => `
import { closeSync, openSync, readSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
${decode ? `import { decodeText } from ${JSON.stringify(decoder)};` : ''}
const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { maxBuffer: 1 << 28 })
  .toString().split('\\0').filter(Boolean);
let buffer = Buffer.allocUnsafe(1 << 20);
let kept = 0;
for (const file of files) {
  let fd;
  try { fd = openSync(file, 'r'); } catch { continue; }
  let length = 0;
  for (;;) {
    if (length === buffer.length) { const larger = Buffer.allocUnsafe(buffer.length * 2); buffer.copy(larger); buffer = larger; }
    const read = readSync(fd, buffer, length, buffer.length - length, null);
    if (read === 0) break;
    length += read;
  }
  closeSync(fd);
  ${decode ? 'kept += decodeText(buffer.subarray(0, length))?.text.length ?? 0;' : 'kept += length;'}
}
if (kept < 0) console.log(kept);
`;

const commands = [
  { name: 'read', args: ['--input-type=module', '-e', floor(false)] },
  { name: 'read + decode', args: ['--input-type=module', '-e', floor(true)] },
  {
    name: `scan (${threads} thread${threads === '1' ? '' : 's'})`,
    args: [join(root, 'bin/tollgate.cjs'), 'scan', '--all', '--format', 'json'],
  },
];

function measure(command) {
  const result = spawnSync(process.execPath, ['--import', preload, ...command.args], {
    cwd: dir,
    env: { ...process.env, TOLLGATE_SCAN_THREADS: threads },
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const mark = result.stderr.split('\n').find((line) => line.startsWith('bench-rusage:'));
  if (!mark || (result.status !== 0 && result.status !== 1)) {
    console.error(`scan-sys: ${command.name} failed (exit ${result.status}): ${result.stderr.trim().split('\n')[0]}`);
    process.exit(1);
  }
  return JSON.parse(mark.slice('bench-rusage:'.length));
}

const loadBefore = loadNow();
const samples = commands.map(() => []);
for (let run = 0; run < runs; run++)
  for (const [index, command] of commands.entries()) samples[index].push(measure(command));
const loadAfter = loadNow();

const pick = (index, key) => median(samples[index].map((sample) => sample[key]));
const line = (index) => {
  const [user, sys] = [pick(index, 'userSeconds'), pick(index, 'sysSeconds')];
  return `${commands[index].name.padEnd(20)} user ${user.toFixed(2)} s  sys ${sys.toFixed(2)} s  faults ${Math.round(
    pick(index, 'minorFaults'),
  )
    .toString()
    .padStart(7)}  switches ${Math.round(pick(index, 'voluntarySwitches'))
    .toString()
    .padStart(6)}  peak ${pick(index, 'maxRssMb')} MB`;
};
console.log(`scan-sys: ${dir}, median of ${runs} paired run(s), load ${loadBefore} before, ${loadAfter} after`);
for (const index of commands.keys()) console.log(`  ${line(index)}`);
const scan = commands.length - 1;
const over = (key) => pick(scan, key) / pick(1, key);
printResult({
  name: 'scan-sys',
  line: `  scan over read + decode: sys ${over('sysSeconds').toFixed(2)}×, faults ${over('minorFaults').toFixed(2)}×, CPU ${(
    (pick(scan, 'userSeconds') + pick(scan, 'sysSeconds')) / (pick(1, 'userSeconds') + pick(1, 'sysSeconds'))
  ).toFixed(2)}×`,
  values: {
    threads: Number(threads),
    runs,
    loadBefore,
    loadAfter,
    ...Object.fromEntries(
      commands.map((command, index) => [
        command.name,
        {
          userSeconds: pick(index, 'userSeconds'),
          sysSeconds: pick(index, 'sysSeconds'),
          minorFaults: pick(index, 'minorFaults'),
          voluntarySwitches: pick(index, 'voluntarySwitches'),
          maxRssMb: pick(index, 'maxRssMb'),
        },
      ]),
    ),
  },
});
