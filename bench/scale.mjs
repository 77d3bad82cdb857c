#!/usr/bin/env node
// Cliffs a review found, each timed as a whole process and printed as a ratio against a baseline measured
// in the same run, with the load average and the size of what was scanned:
//   files      `tollgate scan DIR` of 150,000 tiny files, per file against 15,000 (linear: 1.0x; it once crashed),
//              and the peak RSS at 15,000, 50,000 and 150,000 files (bounded: a few hundred bytes a file at most)
//   findings   one file with 32,000 findings against 8,000 (target < 4x: overlap resolution was quadratic)
//   dense      keyword-dense JSON against secretlint 13 (`--format compact`, bench/secretlint13.mjs) on the same file
//              (≤ 1x): 12 MB with a credential-named key on every line, the same keys on one 12 MB line, and 2 MB on
//              one line whose values look like identifiers (`"token_2": "cfg_auth_token_2"`, 0 findings)
//   threads    `tollgate scan --all` of the npm corpus (bench/.cache/text, built by bench/secrets.mjs; else a generated
//              96 MB tree) on 1 thread against one per core (TOLLGATE_SCAN_THREADS) and the default choice, paired,
//              wall and CPU; then the first 30 MB of it as a folder on 1 thread against 2 (does a laptop's scan pay
//              for a second core?); the findings and skipped files must be the same on every count; and one
//              timeline per thread count (bench/thread-timeline.mjs): each thread's first file, share and CPU
//   run        `tollgate run` with 10,000 findings against 2,000, per finding (masking was quadratic)
//   startup    `tollgate --version` against `node -e 0` (target ≤ 1.5x; `run-no-changes.mjs` and `stop-hook.mjs`
//              time the no-change run and the stop hook the same way)
//
//   npm run build && node bench/scale.mjs [files|findings|dense|threads|run|startup ...] [--runs N]
//
// A report: it prints the figures and exits 0 either way. Everything is generated under os.tmpdir() and removed.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertSourceCorpus, exitWithUsageIfAsked, median, recordResult } from './measure.mjs';
import { ensureSecretlint13 } from './secretlint13.mjs';
import { formatTimeline, threadTimeline } from './thread-timeline.mjs';

exitWithUsageIfAsked(import.meta.url);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'bin/tollgate.cjs');
const args = process.argv.slice(2);
const runsFlag = args.indexOf('--runs');
const runs = runsFlag === -1 ? 3 : Number(args[runsFlag + 1]);
const wanted = args.filter((arg, index) => !arg.startsWith('-') && args[index - 1] !== '--runs');
const only = (name) => wanted.length === 0 || wanted.includes(name);
const work = mkdtempSync(join(tmpdir(), 'tollgate-bench-scale-'));
const hasTime = existsSync('/usr/bin/time');

/** Wall and CPU seconds and peak RSS (MB) of one process. */
function timed(command, commandArgs, options = {}) {
  const argv = hasTime ? ['/usr/bin/time', ['-f', '%U %S %M', command, ...commandArgs]] : [command, commandArgs];
  const started = performance.now();
  const result = spawnSync(argv[0], argv[1], { encoding: 'utf8', maxBuffer: 1 << 30, ...options });
  const wall = (performance.now() - started) / 1000;
  const [user, system, rss] = hasTime ? result.stderr.trim().split('\n').pop().split(' ').map(Number) : [];
  return { wall, cpu: hasTime ? user + system : Number.NaN, rss: hasTime ? rss / 1024 : Number.NaN, result };
}

/** Median of `runs` runs of each, taking turns so that outside load falls on all alike. */
function paired(...runners) {
  const results = runners.map(() => []);
  for (let round = 0; round < runs; round++) {
    for (const [index, run] of runners.entries()) results[index].push(run());
  }
  return results.map((list) => ({
    wall: median(list.map((r) => r.wall)),
    cpu: median(list.map((r) => r.cpu)),
    rss: Math.max(...list.map((r) => r.rss)),
    result: list[0].result,
  }));
}

const load = () => `load ${loadavg()[0].toFixed(2)}`;
const fmt = (r) => `${r.wall.toFixed(2)} s wall, ${r.cpu.toFixed(2)} s CPU, ${r.rss.toFixed(0)} MB peak`;

function scanOf(dir, target, threads) {
  const targets = Array.isArray(target) ? target : [target];
  const env = { ...process.env };
  if (threads === undefined) delete env.TOLLGATE_SCAN_THREADS;
  else env.TOLLGATE_SCAN_THREADS = String(threads);
  return () => {
    const run = timed(process.execPath, [cli, 'scan', ...targets, '--format', 'json'], { cwd: dir, env });
    if (run.result.status !== 0 && run.result.status !== 1)
      throw new Error(`tollgate scan exited ${run.result.status}: ${run.result.stderr.slice(0, 400)}`);
    return run;
  };
}

function tinyFiles(dir, count) {
  for (let d = 0; d * 1000 < count; d++) {
    mkdirSync(join(dir, `d${d}`), { recursive: true });
    for (let f = 0; f < 1000 && d * 1000 + f < count; f++) writeFileSync(join(dir, `d${d}`, `f${f}.txt`), 'x = 1\n');
  }
}

if (only('files')) {
  const small = join(work, 'files-15k');
  const middle = join(work, 'files-50k');
  const large = join(work, 'files-150k');
  tinyFiles(small, 15_000);
  tinyFiles(middle, 50_000);
  tinyFiles(large, 150_000);
  const [big, base, mid] = paired(scanOf(large, '.'), scanOf(small, '.'), scanOf(middle, '.'));
  const report = JSON.parse(big.result.stdout);
  console.log(
    `files: scan DIR of 150,000 files (${report.scannedFiles} scanned, 0.9 MB): ${fmt(big)}; 15,000 files: ${fmt(base)}; ` +
      `per file ${(big.wall / 10 / base.wall).toFixed(2)}x (wall), ${(big.cpu / 10 / base.cpu).toFixed(2)}x (CPU) (${load()})`,
  );
  // Memory is bounded by a window (the pool of file-system calls, one file's text), not by the tree: past the list of
  // paths itself (a few hundred bytes a file), the peak must not grow with the file count.
  const perFile = (big.rss - base.rss) / 135_000;
  console.log(
    `files memory: peak RSS 15,000 files ${base.rss.toFixed(0)} MB, 50,000 ${mid.rss.toFixed(0)} MB, ` +
      `150,000 ${big.rss.toFixed(0)} MB: ${(perFile * 1024 * 1024).toFixed(0)} bytes a file past 15,000 ` +
      `(it once peaked at 813 MB for 150,000) (${load()})`,
  );
}

/** A text with `count` distinct generic findings, several rules overlapping on each. */
function findingsFile(path, count) {
  const lines = [];
  for (let i = 0; i < count; i++)
    lines.push(`api_secret_${i} = "Zq${(i * 7919).toString(36)}Xk${i.toString(36)}Wm8pLr4T"`);
  writeFileSync(path, `${lines.join('\n')}\n`);
}

if (only('findings')) {
  const dir = join(work, 'findings');
  mkdirSync(dir);
  findingsFile(join(dir, 'f8k.env'), 8000);
  findingsFile(join(dir, 'f32k.env'), 32_000);
  const [big, base] = paired(scanOf(dir, 'f32k.env'), scanOf(dir, 'f8k.env'));
  const found = JSON.parse(big.result.stdout).findings.length;
  console.log(
    `findings: one file with ${found} findings: ${fmt(big)}; with 8,000: ${fmt(base)}; ` +
      `${(big.wall / base.wall).toFixed(2)}x (target < 4x) (${load()})`,
  );
}

const DENSE_KEYS = [
  'password',
  'api_key',
  'token',
  'secret',
  'client_secret',
  'auth_token',
  'access_key',
  'private_key',
];

/** `"<credential name>_<i>": <value(i)>` entries, about `bytes` of them, one per line or all on one line. */
function denseJson(path, bytes, { oneLine = false, value = (i) => `"value ${i % 97}"` } = {}) {
  const parts = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const part = `"${DENSE_KEYS[i % DENSE_KEYS.length]}_${i}": ${value(i)},`;
    parts.push(part);
    size += part.length + 1;
  }
  const body = oneLine ? parts.join(' ') : parts.map((part) => `  ${part}`).join('\n');
  writeFileSync(path, oneLine ? `{${body} "end": 1}\n` : `{\n${body}\n"end": 1}\n`);
}

if (only('dense')) {
  const dir = join(work, 'dense');
  mkdirSync(dir);
  denseJson(join(dir, 'dense.json'), 12_000_000);
  denseJson(join(dir, 'dense-line.json'), 12_000_000, { oneLine: true });
  denseJson(join(dir, 'identifiers.json'), 2_000_000, {
    oneLine: true,
    value: (i) => `"cfg_${DENSE_KEYS[(i + 3) % DENSE_KEYS.length]}_${i}"`,
  });
  assertSourceCorpus(dir);
  const rc = join(dir, '.secretlintrc.json');
  writeFileSync(rc, JSON.stringify({ rules: [{ id: '@secretlint/secretlint-rule-preset-recommend' }] }));
  const secretlint = ensureSecretlint13(root, { fallback: true });
  const documents = [
    ['dense.json', 'keyword-dense JSON, a credential-named key on every line (~30 bytes), no secret'],
    ['dense-line.json', 'the same keys on one line'],
    ['identifiers.json', 'one line, values that look like identifiers ("token_2": "cfg_auth_token_2")'],
  ];
  for (const [file, what] of documents) {
    const before = load();
    const [ours, theirs] = paired(scanOf(dir, file), () => {
      // On the bench's Node, as tollgate is (the script's `#!/usr/bin/env node` would take PATH's).
      const run = timed(process.execPath, [secretlint.bin, '--format', 'compact', '--secretlintrc', rc, file], {
        cwd: dir,
        env: { ...process.env, NODE_PATH: secretlint.nodePath },
      });
      if (run.result.status !== 0) throw new Error(`secretlint exited ${run.result.status}: ${run.result.stdout}`);
      return run;
    });
    const size = statSync(join(dir, file)).size;
    const found = JSON.parse(ours.result.stdout).findings.length;
    recordDense(file, size, ours, theirs, found);
    console.log(
      `dense: ${(size / 1e6).toFixed(1)} MB ${what}: tollgate ${fmt(ours)}, ${found} findings; ` +
        `secretlint ${secretlint.version} --format compact ${fmt(theirs)}; ${(ours.wall / theirs.wall).toFixed(2)}x wall, ` +
        `${(ours.cpu / theirs.cpu).toFixed(2)}x CPU (target ≤ 1x, 0 findings) (${before} before, ${load()} after)`,
    );
  }
}

/** `count` source files of about `bytes` each, mostly ordinary code, each with one token and one password. */
function sourceTree(dir, count, bytes) {
  const lines = [
    'export function handler(request, response) {',
    '  const user = await db.users.findOne({ id: request.params.id, tenant: request.tenant });',
    "  if (!user) return response.status(404).json({ error: 'not found' });",
    '  const token = request.headers.authorization?.split(" ")[1] ?? "";',
    "  logger.info('user signed in', { user: user.id, from: request.ip, secret: false });",
    '}',
  ].join('\n');
  const filler = `${lines}\n`.repeat(Math.ceil(bytes / (lines.length + 1)));
  for (let i = 0; i < count; i++) {
    mkdirSync(join(dir, `m${i % 20}`), { recursive: true });
    const key = `ghp_${i.toString(36).padStart(4, '0')}Zq8pLr4TXkWm2Nv7Bc9Dy6Hf3Js5Ag1Qe0`.slice(0, 40);
    writeFileSync(
      join(dir, `m${i % 20}`, `f${i}.js`),
      `${filler.slice(0, bytes)}\nconst githubToken = "${key}";\nconst dbPassword = "Vq7${i}Lx2Rm9Tz4Wn";\n`,
    );
  }
}

/**
 * The npm corpus bench/secrets.mjs builds (bench/.cache/text, 256 MB of library code committed as a repository), else
 * a generated tree of 96 MB in 400 files; and the first 30 MB of it in a folder, what a laptop might scan.
 */
function threadCorpora() {
  const npm = join(root, 'bench/.cache/text');
  if (!existsSync(join(npm, '.git'))) {
    const dir = join(work, 'threads');
    sourceTree(dir, 400, 240_000);
    const slice = join(work, 'threads-slice');
    sourceTree(slice, 125, 240_000);
    assertSourceCorpus(dir);
    assertSourceCorpus(slice);
    return {
      full: { dir, args: ['.'], name: 'a generated tree (npm run bench:secrets builds the npm corpus)' },
      slice,
    };
  }
  const slice = join(work, 'threads-slice');
  let bytes = 0;
  for (const path of gitFiles(npm)) {
    if (bytes >= 30_000_000) break;
    const size = statSync(join(npm, path)).size;
    mkdirSync(dirname(join(slice, path)), { recursive: true });
    copyFileSync(join(npm, path), join(slice, path));
    bytes += size;
  }
  assertSourceCorpus(slice);
  return { full: { dir: npm, args: ['--all'], name: 'the npm corpus (bench/.cache/text, scan --all)' }, slice };
}

function gitFiles(dir) {
  const listed = spawnSync('git', ['ls-files', '-z'], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 });
  return listed.stdout.split('\0').filter(Boolean).sort();
}

/** 1 thread against `threads` and the default choice on one corpus, paired; the findings must be the same. */
function threadRow(label, dir, args, threads, { record = false } = {}) {
  const scan = (count) => scanOf(dir, args, count);
  const before = load();
  const [one, many, chosen] = paired(scan(1), scan(threads), scan(undefined));
  const reports = [one, many, chosen].map((run) => JSON.parse(run.result.stdout));
  const same = reports.every(
    (report) =>
      JSON.stringify([report.findings, report.skipped]) === JSON.stringify([reports[0].findings, reports[0].skipped]),
  );
  const mb = (reports[0].scannedBytes / 1e6).toFixed(1);
  const ratio = (run) =>
    `${(one.wall / run.wall).toFixed(2)}x faster in wall, ${(run.cpu / one.cpu).toFixed(2)}x the CPU`;
  console.log(
    `${label}: ${mb} MB in ${reports[0].scannedFiles} files, ${reports[0].findings.length} findings ` +
      `(${same ? 'the same' : 'DIFFERENT'} on every count): 1 thread ${fmt(one)}; ${threads} threads ${fmt(many)}; ` +
      `default ${fmt(chosen)}; ${threads} against 1: ${ratio(many)}; default against 1: ${ratio(chosen)} ` +
      `(${before} before, ${load()} after)`,
  );
  if (record) recordThreads(threads, reports[0], one, many, chosen, same);
  if (!same) process.exitCode = 1;
}

if (only('threads')) {
  const { full, slice } = threadCorpora();
  const cores = Math.min(availableParallelism(), 16);
  console.log(
    `threads: ${cores} cores; corpus: ${full.name}; target on 2 cores: >= 1.7x faster in wall, <= 1.1x the CPU`,
  );
  threadRow('threads', full.dir, full.args, cores, { record: true });
  // Where each thread's time goes (bench/thread-timeline.cjs): when it scans its first byte, its share, its CPU.
  for (const count of [1, cores]) {
    console.log(`threads timeline, ${count} thread${count === 1 ? '' : 's'} (${load()}):`);
    for (const line of formatTimeline(threadTimeline(cli, full.dir, full.args, count))) console.log(line);
  }
  // Whether a second core pays on a laptop-sized scan: the default takes one per BYTES_PER_THREAD (128 MB).
  threadRow('threads 30 MB', slice, ['.'], 2);
}

/** A repository whose one change adds `count` findings, validated by `tollgate run` with only the secret scan. */
function runRepo(dir, count) {
  mkdirSync(dir);
  const home = join(dir, '.home');
  mkdirSync(home);
  writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = Bench\n\temail = bench@tollgate.invalid\n');
  const env = { ...process.env, HOME: home, GIT_CONFIG_GLOBAL: join(home, '.gitconfig'), GIT_CONFIG_NOSYSTEM: '1' };
  const git = (...gitArgs) => spawnSync('git', gitArgs, { cwd: dir, env, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  writeFileSync(join(dir, '.gitignore'), '.home/\n');
  writeFileSync(join(dir, 'tollgate.config.yaml'), 'validation:\n  advisories: { enabled: false }\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'base');
  findingsFile(join(dir, 'leaked.env'), count);
  return () => timed(process.execPath, [cli, 'run', '--format', 'json'], { cwd: dir, env });
}

if (only('run')) {
  const [big, base] = paired(runRepo(join(work, 'run-10k'), 10_000), runRepo(join(work, 'run-2k'), 2000));
  console.log(
    `run: tollgate run with 10,000 findings: ${fmt(big)}; with 2,000: ${fmt(base)}; ` +
      `per finding ${(big.wall / 5 / base.wall).toFixed(2)}x (linear: ≤ 1x) (${load()})`,
  );
}

if (only('startup')) {
  const [ours, node] = paired(
    () => timed(process.execPath, [cli, '--version']),
    () => timed(process.execPath, ['-e', '0']),
  );
  console.log(
    `startup: tollgate --version ${(ours.wall * 1000).toFixed(0)} ms vs node -e 0 ${(node.wall * 1000).toFixed(0)} ms: ` +
      `${(ours.wall / node.wall).toFixed(2)}x (target ≤ 1.5x; see run-no-changes.mjs and stop-hook.mjs) (${load()})`,
  );
}

rmSync(work, { recursive: true, force: true });

// ── what `npm run bench` puts in its table (bench/table.mjs reads these records) ───────────────────────────────
function recordDense(file, bytes, ours, theirs, findings) {
  recordResult('scale-dense', {
    file,
    megabytes: bytes / 1e6,
    wallRatio: ours.wall / theirs.wall,
    cpuRatio: ours.cpu / theirs.cpu,
    findings,
    secretlintFindings: (theirs.result.stdout.match(/: line \d+, col \d+, /g) ?? []).length,
  });
}

function recordThreads(cores, report, one, many, chosen, same) {
  recordResult('scale-threads', {
    cores,
    megabytes: report.scannedBytes / 1e6,
    oneWall: one.wall,
    manyWall: many.wall,
    defaultWall: chosen.wall,
    oneCpu: one.cpu,
    manyCpu: many.cpu,
    defaultCpu: chosen.cpu,
    same,
  });
}
