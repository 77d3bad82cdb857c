#!/usr/bin/env node
/**
 * Secret-scanning throughput of the CLI as users run it, against secretlint 13 on the same files, with gitleaks 8.28
 * (WASM) beside it on a 20 MB slice (it runs at well under 1 MB/s, so the full corpus would take most of an hour).
 *
 *   npm run bench:secrets                 (--runs N: timed runs per tool, median kept, default 3; --no-gitleaks)
 *   node bench/secrets.mjs --quick        (tollgate against secretlint on the 20 MB slice only: seconds, not minutes)
 *
 * Beside today's build it times the CLI as it was at BASELINE_COMMIT (253 rules, before the long tail of providers),
 * bundled once into bench/.cache/baseline-<commit>, so the cost of the rule count shows on the same files and load.
 *
 * The corpus is real library code: the pinned npm packages below, installed once into bench/.cache/corpus
 * (gitignored, `npm install --ignore-scripts`), copied without binaries to bench/.cache/text (not named
 * node_modules, which scanners skip) and committed there as a git repository of its own, so that
 * `tollgate scan --all` reads it as it reads a user's work tree. secretlint 13 and its recommended preset are
 * installed the same way into bench/.cache/secretlint13. Every tool runs as its own process, timed end to end
 * (start-up, listing, reading, scanning, report), after one untimed pass that warms the page cache.
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertSourceCorpus, exitWithUsageIfAsked, installEnv, median, recordResult } from './measure.mjs';
import { ensureSecretlint13 } from './secretlint13.mjs';

exitWithUsageIfAsked(import.meta.url);

const PINNED = [
  'aws-sdk@2.1693.0',
  'typescript@5.9.3',
  'echarts@6.1.0',
  'three@0.187.0',
  'pdfjs-dist@5.6.205',
  'rxjs@7.8.2',
  '@angular/core@21.2.26',
  '@types/node@26.6.6',
  'lodash@4.18.1',
];
/** Binary files are left out of the copy, so that every byte of the corpus is text every tool must scan. */
const BINARY = /\.(wasm|bcmap|pfb|png|jpe?g|gif|ttf|woff2?|ico|icc|node|gz|zip|tgz|br|dat)$/i;
/** Bumped whenever the copy rules change, so an old copy is rebuilt. */
const CORPUS_FORMAT = 2;
const SLICE_BYTES = 20_000_000;
/** The last commit with the old rule count (253 rules, 86 providers): its CLI is timed beside today's. */
const BASELINE_COMMIT = '5cb731a563308d787ba3189f43760544b9a85ba5';

/**
 * Every finding tollgate reports on this library code, reviewed by hand: `path:line rule` → why it is reported.
 * A finding not listed here is printed as UNREVIEWED (a new false alarm, or a rule change to look at).
 */
const REVIEWED = {};

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cache = join(root, 'bench/.cache');
const cli = join(root, 'bin/tollgate.cjs');
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 3;
const quick = process.argv.includes('--quick');
const skipGitleaks = quick || process.argv.includes('--no-gitleaks');

function listFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === '.git') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(path));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

/** A folder committed as a git repository of its own (what `tollgate scan --all` reads). */
function commitAll(dir) {
  const git = (...args) =>
    run('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@localhost', '-c', 'core.autocrlf=false', ...args], {
      cwd: dir,
    });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '--no-verify', '-m', 'corpus');
}

// ── corpus ─────────────────────────────────────────────────────────────────────────────────────────────────────
function ensureCorpus() {
  const installed = join(cache, 'corpus/node_modules');
  const text = join(cache, 'text');
  const marker = join(cache, 'text.json');
  const wanted = JSON.stringify({ PINNED, CORPUS_FORMAT });
  if (existsSync(marker) && readFileSync(marker, 'utf8') === wanted) return text;
  if (!PINNED.every((spec) => existsSync(join(installed, spec.slice(0, spec.lastIndexOf('@')))))) {
    console.log(`installing the pinned corpus into ${relative(root, join(cache, 'corpus'))} (once)…`);
    run(
      'npm',
      [
        'install',
        '--prefix',
        join(cache, 'corpus'),
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        '--omit=peer',
        ...PINNED,
      ],
      { stdio: 'inherit', env: installEnv() },
    );
  }
  console.log('copying the text of the corpus and committing it (once)…');
  rmSync(text, { recursive: true, force: true });
  rmSync(join(cache, 'slice-20mb'), { recursive: true, force: true });
  for (const spec of PINNED) {
    const name = spec.slice(0, spec.lastIndexOf('@'));
    cpSync(join(installed, name), join(text, name.replace('/', '__')), {
      recursive: true,
      filter: (source) => !BINARY.test(source) && !source.includes(`${name}/node_modules`),
    });
  }
  commitAll(text);
  writeFileSync(marker, wanted);
  return text;
}

function ensureSlice(text) {
  const slice = join(cache, 'slice-20mb');
  const marker = join(slice, '.git/bench-complete');
  if (existsSync(marker)) return slice;
  rmSync(slice, { recursive: true, force: true });
  let bytes = 0;
  // Every package contributes, in path order, so the slice has the corpus' mix of code, typings and JSON.
  const files = listFiles(text).sort();
  const step = Math.max(1, Math.floor(files.length / 2000));
  for (let i = 0; i < files.length && bytes < SLICE_BYTES; i += step) {
    const size = statSync(files[i]).size;
    if (bytes + size > SLICE_BYTES * 1.02) continue;
    const target = join(slice, relative(text, files[i]));
    mkdirSync(dirname(target), { recursive: true });
    cpSync(files[i], target);
    bytes += size;
  }
  commitAll(slice);
  writeFileSync(marker, '');
  return slice;
}

/** The CLI at BASELINE_COMMIT, bundled from that commit's sources with today's node_modules (once). */
function ensureBaselineCli() {
  const dir = join(cache, `baseline-${BASELINE_COMMIT.slice(0, 12)}`);
  const bin = join(dir, 'bin/tollgate.cjs');
  if (existsSync(join(dir, 'dist/bundle/cli/tollgate.cjs'))) return bin;
  console.log(
    `bundling the CLI at ${BASELINE_COMMIT.slice(0, 12)} (the old rule count) into ${relative(root, dir)} (once)…`,
  );
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const archive = spawnSync(
    'git',
    ['-C', root, 'archive', '--format=tar', BASELINE_COMMIT, 'bin', 'src', 'scripts', 'package.json'],
    {
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  if (archive.status !== 0) throw new Error(`git archive ${BASELINE_COMMIT} failed: ${archive.stderr}`);
  run('tar', ['-x', '-C', dir], { input: archive.stdout, encoding: 'buffer' });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  run(process.execPath, [join(dir, 'scripts/bundle.mjs')], { cwd: dir });
  return bin;
}

function sizeOf(dir) {
  let bytes = 0;
  let files = 0;
  for (const path of listFiles(dir)) {
    bytes += statSync(path).size;
    files++;
  }
  return { bytes, files };
}

// ── tools ──────────────────────────────────────────────────────────────────────────────────────────────────────
const hasTime = existsSync('/usr/bin/time');

/**
 * Runs a command, returning wall seconds, stdout, exit status, peak RSS of the largest process in it (MB) and the CPU
 * seconds (user + system) of it and its children: on a shared machine wall time swings with the load, CPU time far
 * less, so rule counts are compared by both.
 */
function timed(command, args, options = {}) {
  const started = performance.now();
  const argv = hasTime ? ['/usr/bin/time', ['-f', '%M %U %S', command, ...args]] : [command, args];
  const result = spawnSync(argv[0], argv[1], { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, ...options });
  const seconds = (performance.now() - started) / 1000;
  const [rssKb, user, system] = hasTime ? result.stderr.trim().split('\n').pop().split(' ').map(Number) : [];
  const rss = hasTime ? rssKb / 1024 : Number.NaN;
  const cpu = hasTime ? user + system : Number.NaN;
  return { seconds, stdout: result.stdout, stderr: result.stderr, status: result.status, rss, cpu };
}

/**
 * Each tool's median run of `runs`, by wall time. The tools take turns (one run of each per round), so that load
 * from outside the bench on a shared machine falls on all of them alike.
 */
function medianRuns(tools) {
  const results = tools.map(() => []);
  for (let round = 0; round < runs; round++) {
    for (const [index, once] of tools.entries()) results[index].push(once());
  }
  return results.map((list) => {
    const middle = median(list.map((result) => result.seconds));
    return list.reduce((best, result) =>
      Math.abs(result.seconds - middle) < Math.abs(best.seconds - middle) ? result : best,
    );
  });
}

/** `tollgate scan` as a user runs it; `args` picks what (`--all` in the repository, or a folder). */
function runTollgate(cwd, args, threads, bin = cli) {
  return () => {
    const env = { ...process.env };
    if (threads === undefined) delete env.TOLLGATE_SCAN_THREADS;
    else env.TOLLGATE_SCAN_THREADS = String(threads);
    const result = timed(process.execPath, [bin, 'scan', ...args, '--format', 'json'], { cwd, env });
    if (result.status !== 0 && result.status !== 1)
      throw new Error(`tollgate scan exited ${result.status}: ${result.stderr.slice(0, 500)}`);
    const report = JSON.parse(result.stdout);
    return {
      seconds: result.seconds,
      cpu: result.cpu,
      rss: result.rss,
      files: report.scannedFiles,
      bytes: report.scannedBytes,
      skipped: report.skipped,
      findings: report.findings.length,
      list: report.findings.map((f) => ({
        place: `${f.path}:${f.line}`,
        rule: f.ruleId,
        masked: f.masked,
        fingerprint: f.fingerprint,
      })),
    };
  };
}

function runSecretlint(dir, secretlint) {
  const rc = join(cache, 'secretlintrc.json');
  writeFileSync(rc, JSON.stringify({ rules: [{ id: '@secretlint/secretlint-rule-preset-recommend' }] }));
  return () => {
    // As users run it (`compact` prints one line per finding): `--format json` writes a report of every file
    // (272 MB here, a 1.8 GB peak) and inflated tollgate's lead about 1.3x. The file count comes from a JSON run
    // outside the timing (`countSecretlintFiles`).
    // On the Node that runs the bench, as tollgate is: the script's `#!/usr/bin/env node` would take PATH's Node.
    const args = [secretlint.bin, '--format', 'compact', '--secretlintrc', rc, '--no-gitignore', '**/*'];
    const result = timed(process.execPath, args, {
      cwd: dir,
      env: { ...process.env, NODE_PATH: secretlint.nodePath },
    });
    if (result.status !== 0 && result.status !== 1)
      throw new Error(`secretlint failed: ${(result.stderr || result.stdout).slice(0, 500)}`);
    return {
      seconds: result.seconds,
      cpu: result.cpu,
      rss: result.rss,
      files: undefined,
      findings: (result.stdout.match(/: line \d+, col \d+, /g) ?? []).length,
    };
  };
}

/** How many files secretlint reads (its JSON report lists every file), run once outside the timing. */
function countSecretlintFiles(dir, secretlint) {
  const rc = join(cache, 'secretlintrc.json');
  const args = [secretlint.bin, '--format', 'json', '--secretlintrc', rc, '--no-gitignore', '**/*'];
  const result = spawnSync(process.execPath, args, {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 1024 * 1024 * 1024,
    env: { ...process.env, NODE_PATH: secretlint.nodePath },
  });
  return JSON.parse(result.stdout).length;
}

function runGitleaks(dir) {
  const report = join(cache, 'gitleaks-report.json');
  const result = timed(join(root, 'node_modules/.bin/gitleaks'), [
    'dir',
    dir,
    '--no-banner',
    '-f',
    'json',
    '-r',
    report,
    '--exit-code',
    '0',
  ]);
  if (result.status !== 0) throw new Error(`gitleaks failed: ${result.stderr.slice(0, 500)}`);
  return {
    seconds: result.seconds,
    cpu: result.cpu,
    findings: JSON.parse(readFileSync(report, 'utf8')).length,
    rss: result.rss,
  };
}

// ── run ────────────────────────────────────────────────────────────────────────────────────────────────────────
// Real paths: `scan DIR` does not follow a link, and bench/.cache may be one (a checkout sharing another's corpus).
const text = realpathSync(ensureCorpus());
const slice = realpathSync(ensureSlice(text));
// Built once and kept: whatever got into the folders since (a pack, a binary) would be measured as source.
assertSourceCorpus(text, { repository: true });
assertSourceCorpus(slice, { repository: true });
const secretlint = ensureSecretlint13(root);
if (quick) quickRun();
const baselineCli = ensureBaselineCli();
const full = sizeOf(text);
const part = sizeOf(slice);
const cores = availableParallelism();
const outside = mkdtempSync(join(tmpdir(), 'tollgate-bench-'));
console.log(`corpus: ${(full.bytes / 1e6).toFixed(1)} MB in ${full.files} files (${PINNED.join(' ')})`);
console.log(
  `${cores} cores, Node ${process.version}; secretlint ${secretlint.version} with preset-recommend ${secretlint.preset}` +
    (secretlint.engines ? ` (declares node ${secretlint.engines}; it runs on this Node)` : ''),
);
console.log(`timed runs per tool: ${runs}, taking turns, median kept; load average now ${loadavg()[0].toFixed(2)}\n`);
for (const path of listFiles(text)) readFileSync(path); // warm the page cache (untimed)

const rows = [];
const row = (tool, scope, bytes, result) =>
  rows.push({
    tool,
    scope,
    mb: bytes / 1e6,
    ...result,
    mbps: bytes / 1e6 / result.seconds,
    cpuMbps: bytes / 1e6 / result.cpu,
  });

const [ours, one, walked, theirs, old] = medianRuns([
  runTollgate(text, ['--all']),
  runTollgate(text, ['--all'], 1),
  runTollgate(outside, [text]),
  runSecretlint(text, secretlint),
  runTollgate(text, ['--all'], undefined, baselineCli),
]);
row(`tollgate scan --all (${cores} cores, default)`, 'full', full.bytes, ours);
row('tollgate scan --all (TOLLGATE_SCAN_THREADS=1)', 'full', full.bytes, one);
row('tollgate scan DIR (outside git: directory walk)', 'full', full.bytes, walked);
row(`secretlint ${secretlint.version} (preset-recommend)`, 'full', full.bytes, theirs);
row(`tollgate scan --all at ${BASELINE_COMMIT.slice(0, 7)} (old rule count)`, 'full', full.bytes, old);
const [oursSlice, theirsSlice] = medianRuns([runTollgate(slice, ['--all']), runSecretlint(slice, secretlint)]);
row('tollgate scan --all (default)', '20 MB slice', part.bytes, oursSlice);
row(`secretlint ${secretlint.version} (preset-recommend)`, '20 MB slice', part.bytes, theirsSlice);
const gitleaks = skipGitleaks ? null : runGitleaks(slice);
if (gitleaks) row('gitleaks 8.28 (WASM, 1 thread)', '20 MB slice', part.bytes, gitleaks);
const ruleCounts = (await import(join(root, 'dist/secrets/rule-docs.js'))).ruleCounts();
rmSync(outside, { recursive: true, force: true });

const header = ['tool', 'corpus', 'MB', 'seconds', 'MB/s', 'CPU s', 'MB/CPU-s', 'peak RSS', 'files', 'findings'];
const cells = rows.map((r) => [
  r.tool,
  r.scope,
  r.mb.toFixed(1),
  r.seconds.toFixed(2),
  r.mbps.toFixed(1),
  Number.isNaN(r.cpu) ? 'n/a' : r.cpu.toFixed(2),
  Number.isNaN(r.cpu) ? 'n/a' : r.cpuMbps.toFixed(1),
  Number.isNaN(r.rss) ? 'n/a' : `${r.rss.toFixed(0)} MB`,
  r.files === undefined ? '' : String(r.files),
  String(r.findings),
]);
const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
const print = (c) =>
  console.log(c.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '));
print(header);
for (const c of cells) print(c);

// ── checks: the same bytes, every byte, the same findings whatever the thread count ─────────────────────────────
const problems = [];
for (const [label, result, expected] of [
  ['scan --all', ours, full],
  ['scan --all, 1 thread', one, full],
  ['scan DIR', walked, full],
  ['scan --all on the slice', oursSlice, part],
]) {
  if (result.bytes !== expected.bytes || result.files !== expected.files || result.skipped.length > 0)
    problems.push(
      `tollgate ${label} scanned ${result.files} files / ${result.bytes} bytes of ${expected.files} / ${expected.bytes}` +
        (result.skipped.length > 0 ? `; skipped ${JSON.stringify(result.skipped.slice(0, 3))}` : ''),
    );
}
const theirFiles = countSecretlintFiles(text, secretlint);
if (theirFiles !== full.files) problems.push(`secretlint scanned ${theirFiles} of ${full.files} files`);
const key = (list) => JSON.stringify(list.map((f) => `${f.place} ${f.rule} ${f.fingerprint}`).sort());
if (key(ours.list) !== key(one.list))
  problems.push('tollgate found different things with one thread than with several');

const ratio = rows[0].mbps / rows[3].mbps;
const oldRow = rows[4];
console.log(
  `\nrule count: ${ruleCounts.rules} rules (${ruleCounts.providers} providers) at ${rows[0].mbps.toFixed(1)} MB/s; ` +
    `253 rules at ${BASELINE_COMMIT.slice(0, 7)}: ${oldRow.mbps.toFixed(1)} MB/s ` +
    `(${(rows[0].mbps / oldRow.mbps).toFixed(2)}× the old throughput; ${(oldRow.mbps / rows[3].mbps).toFixed(2)}× and ` +
    `${ratio.toFixed(2)}× secretlint on the same files and load)`,
);
if (!Number.isNaN(rows[0].cpu))
  console.log(
    `by CPU time (user + system, which other load on a shared machine sways far less than wall time): ` +
      `${ruleCounts.rules} rules ${rows[0].cpuMbps.toFixed(1)} MB per CPU-second, 253 rules ` +
      `${oldRow.cpuMbps.toFixed(1)} (${(rows[0].cpuMbps / oldRow.cpuMbps).toFixed(2)}× the old), ` +
      `secretlint ${rows[3].cpuMbps.toFixed(1)}`,
  );
console.log(
  `tollgate scan --all, full corpus: ${rows[0].mbps.toFixed(1)} MB/s on ${cores} cores (target ≥ 120), ` +
    `${ratio.toFixed(2)}× secretlint ${secretlint.version} on the same files (target ≥ 3×)`,
);
console.log(
  `threads: default ${rows[0].seconds.toFixed(2)} s vs 1 thread ${rows[1].seconds.toFixed(2)} s ` +
    `(${(rows[1].seconds / rows[0].seconds).toFixed(2)}× faster with workers)`,
);
console.log(
  `tollgate / secretlint on the 20 MB slice: ${(rows[5].mbps / rows[6].mbps).toFixed(2)}× (start-up included)`,
);
if (gitleaks)
  console.log(
    `tollgate / gitleaks-WASM on the 20 MB slice: ${(rows[5].mbps / rows[7].mbps).toFixed(0)}× (a WASM build; native gitleaks is not installable here)`,
  );
console.log(
  `corpus: ${(full.bytes / 1e6).toFixed(1)} MB, ${full.files} files; secretlint timed with --format compact; ` +
    `load average at the end: ${loadavg()[0].toFixed(2)} (other work on a shared machine slows every row)`,
);
console.log(`\ntollgate findings on the library code (full corpus): ${ours.list.length}`);
for (const finding of ours.list) {
  const id = `${finding.place} ${finding.rule}`;
  const reason = REVIEWED[id];
  console.log(`  ${reason ? 'reviewed  ' : 'UNREVIEWED'} ${id} ${finding.masked}${reason ? `: ${reason}` : ''}`);
}
if (problems.length === 0) recordAgainstSecretlint('full', full.bytes, ours, theirs);
if (problems.length > 0) {
  console.log(`\nNOT COMPARABLE:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(1);
}

/**
 * The figures `npm run bench` puts in its table (bench/table.mjs): tollgate's default scan against secretlint on the
 * same corpus, by wall (how many times faster), by CPU (tollgate's share of secretlint's) and in MB/s.
 */
function recordAgainstSecretlint(corpus, bytes, tollgate, theirs) {
  recordResult('secrets', {
    corpus,
    megabytes: bytes / 1e6,
    speedup: theirs.seconds / tollgate.seconds,
    cpuRatio: tollgate.cpu / theirs.cpu,
    mbps: bytes / 1e6 / tollgate.seconds,
    tollgate: { seconds: tollgate.seconds, cpu: tollgate.cpu, findings: tollgate.findings },
    secretlint: { seconds: theirs.seconds, cpu: theirs.cpu, findings: theirs.findings },
  });
}

/**
 * --quick: tollgate's default scan against secretlint on the 20 MB slice, checked to cover every byte of it, and
 * recorded as the full run's figures are; then the process ends.
 */
function quickRun() {
  const part = sizeOf(slice);
  for (const path of listFiles(slice)) readFileSync(path); // warm the page cache (untimed)
  const before = loadavg()[0];
  const [ours, theirs] = medianRuns([runTollgate(slice, ['--all']), runSecretlint(slice, secretlint)]);
  console.log(
    `--quick, ${(part.bytes / 1e6).toFixed(1)} MB slice in ${part.files} files: tollgate scan --all ` +
      `${ours.seconds.toFixed(2)} s wall, ${ours.cpu.toFixed(2)} CPU-s, ${ours.findings} findings; ` +
      `secretlint ${secretlint.version} --format compact ${theirs.seconds.toFixed(2)} s, ${theirs.cpu.toFixed(2)} CPU-s; ` +
      `${(theirs.seconds / ours.seconds).toFixed(2)}× faster in wall, ${(ours.cpu / theirs.cpu).toFixed(2)}× its CPU ` +
      `(median of ${runs}; load ${before.toFixed(2)} before, ${loadavg()[0].toFixed(2)} after)`,
  );
  if (ours.bytes !== part.bytes || ours.files !== part.files || ours.skipped.length > 0) {
    console.error(
      `NOT COMPARABLE: tollgate scanned ${ours.files} files / ${ours.bytes} bytes of ${part.files} / ${part.bytes}`,
    );
    process.exit(1);
  }
  recordAgainstSecretlint('slice', part.bytes, ours, theirs);
  process.exit(0);
}
