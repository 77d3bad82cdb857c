#!/usr/bin/env node
/**
 * Secret-scanning throughput: tollgate vs secretlint (same files) vs gitleaks 8.28 WASM (a 20 MB slice: it runs at
 * well under 1 MB/s, so the full corpus would take most of an hour).
 *
 *   npm run build && node bench/secrets.mjs          (TOLLGATE_DIST=<dir> to use another build)
 *
 * The corpus is real source text: the pinned npm packages below, installed once into bench/.cache/corpus (gitignored,
 * `npm install --ignore-scripts`), then copied without binaries to bench/.cache/text (not named node_modules, which
 * scanners skip). Both are reused between runs. Every tool runs as its own process, timed end to end (start-up,
 * listing, reading, scanning), after one untimed pass that warms the page cache.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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
const BINARY = /\.(wasm|bcmap|pfb|png|jpe?g|gif|ttf|woff2?|ico|icc|node|gz|zip|tgz|br)$/i;
const SLICE_BYTES = 20_000_000;

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cache = join(root, 'bench/.cache');
const dist = resolve(root, process.env.TOLLGATE_DIST ?? 'dist');

function listFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(path));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

// ── child mode: one timed tollgate scan, reporting JSON on stdout ──────────────────────────────────────────────
if (process.argv[2] === '--child') {
  const [, , , dir, workersArg] = process.argv;
  const workers = workersArg === 'auto' ? 'auto' : workersArg;
  const started = performance.now();
  const { builtinRules } = await import(pathToFileURL(join(dist, 'secrets/rules/index.js')).href);
  const { SecretScanner } = await import(pathToFileURL(join(dist, 'secrets/scanner.js')).href);
  const { scanDiskTargets } = await import(pathToFileURL(join(dist, 'secrets/parallel-scan.js')).href);
  const { secretsOptionsSchema } = await import(pathToFileURL(join(dist, 'secrets/options.js')).href);
  const options = secretsOptionsSchema.parse(undefined);
  const targets = listFiles(dir).map((absolute) => ({
    path: relative(dir, absolute),
    absolute,
    size: statSync(absolute).size,
    read: async () => readFileSync(absolute),
  }));
  const outcome = await scanDiskTargets(targets, {
    repoRoot: dir,
    options,
    scanner: new SecretScanner(builtinRules),
    baseline: new Set(),
    ...(workers === 'auto' ? {} : { workers: Number(workers) }),
    // Every file, however large, so that all tools scan the same bytes (the product skips files over 5 MB).
    maxBytes: Number.POSITIVE_INFINITY,
    ...(workers === 'auto' ? {} : { minBytes: 0 }),
  });
  const byRule = {};
  for (const finding of outcome.findings) byRule[finding.ruleId] = (byRule[finding.ruleId] ?? 0) + 1;
  console.log(
    JSON.stringify({
      seconds: (performance.now() - started) / 1000,
      bytes: outcome.scannedBytes,
      tooLarge: outcome.skipped.filter((item) => item.reason === 'too_large').length,
      files: outcome.scannedFiles,
      findings: outcome.findings.length,
      byRule,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
    }),
  );
  process.exit(0);
}

// ── corpus ─────────────────────────────────────────────────────────────────────────────────────────────────────
function ensureCorpus() {
  const installed = join(cache, 'corpus/node_modules');
  const text = join(cache, 'text');
  const marker = join(text, '.pinned.json');
  if (existsSync(marker) && readFileSync(marker, 'utf8') === JSON.stringify(PINNED)) return text;
  if (!PINNED.every((spec) => existsSync(join(installed, spec.slice(0, spec.lastIndexOf('@')))))) {
    console.log(`installing the pinned corpus into ${relative(root, join(cache, 'corpus'))} (once)…`);
    const result = spawnSync(
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
      { stdio: 'inherit' },
    );
    if (result.status !== 0) throw new Error('npm install of the corpus failed');
  }
  rmSync(text, { recursive: true, force: true });
  for (const spec of PINNED) {
    const name = spec.slice(0, spec.lastIndexOf('@'));
    cpSync(join(installed, name), join(text, name.replace('/', '__')), {
      recursive: true,
      filter: (source) => !BINARY.test(source) && !source.includes(`${name}/node_modules`),
    });
  }
  writeFileSync(marker, JSON.stringify(PINNED));
  return text;
}

function ensureSlice(text) {
  const slice = join(cache, 'slice-20mb');
  const marker = join(slice, '.complete');
  if (existsSync(marker)) return slice;
  rmSync(slice, { recursive: true, force: true });
  let bytes = 0;
  // Every package contributes, in path order, so the slice has the corpus' mix of code, typings and JSON.
  const files = listFiles(text)
    .filter((path) => !path.endsWith('.pinned.json'))
    .sort();
  const step = Math.max(1, Math.floor(files.length / 2000));
  for (let i = 0; i < files.length && bytes < SLICE_BYTES; i += step) {
    const size = statSync(files[i]).size;
    if (bytes + size > SLICE_BYTES * 1.02) continue;
    const target = join(slice, relative(text, files[i]));
    mkdirSync(dirname(target), { recursive: true });
    cpSync(files[i], target);
    bytes += size;
  }
  writeFileSync(marker, '');
  return slice;
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

/** Runs a command, returning wall seconds, stdout and the peak RSS of the process tree's largest member (MB). */
function timed(command, args, options = {}) {
  const started = performance.now();
  const argv = hasTime ? ['/usr/bin/time', ['-f', '%M', command, ...args]] : [command, args];
  const result = spawnSync(argv[0], argv[1], { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, ...options });
  const seconds = (performance.now() - started) / 1000;
  const rss = hasTime ? Number(result.stderr.trim().split('\n').pop()) / 1024 : Number.NaN;
  return { seconds, stdout: result.stdout, stderr: result.stderr, status: result.status, rss };
}

function runTollgate(dir, workers) {
  const run = timed(process.execPath, [fileURLToPath(import.meta.url), '--child', dir, String(workers)], {
    env: { ...process.env, TOLLGATE_DIST: dist },
  });
  if (run.status !== 0) throw new Error(`tollgate child failed: ${run.stderr.slice(0, 500)}`);
  const report = JSON.parse(run.stdout.trim().split('\n').pop());
  if (report.tooLarge > 0)
    throw new Error(`tollgate skipped ${report.tooLarge} large files: the comparison would not be fair`);
  return {
    seconds: run.seconds,
    findings: report.findings,
    rss: Math.max(report.maxRssMb, run.rss || 0),
    byRule: report.byRule,
  };
}

function runSecretlint(dir) {
  const rc = join(cache, 'secretlintrc.json');
  writeFileSync(rc, JSON.stringify({ rules: [{ id: '@secretlint/secretlint-rule-preset-recommend' }] }));
  const run = timed(join(root, 'node_modules/.bin/secretlint'), ['--format', 'compact', '--secretlintrc', rc, '**/*'], {
    cwd: dir,
    env: { ...process.env, NODE_PATH: join(root, 'node_modules') },
  });
  if (run.status !== 0 && run.status !== 1)
    throw new Error(`secretlint failed: ${(run.stderr || run.stdout).slice(0, 500)}`);
  const findings = run.stdout.split('\n').filter((line) => /: line \d+, col \d+, /.test(line)).length;
  return { seconds: run.seconds, findings, rss: run.rss };
}

function runGitleaks(dir) {
  const report = join(cache, 'gitleaks-report.json');
  const run = timed(join(root, 'node_modules/.bin/gitleaks'), [
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
  if (run.status !== 0) throw new Error(`gitleaks failed: ${run.stderr.slice(0, 500)}`);
  return { seconds: run.seconds, findings: JSON.parse(readFileSync(report, 'utf8')).length, rss: run.rss };
}

// ── run ────────────────────────────────────────────────────────────────────────────────────────────────────────
const text = ensureCorpus();
const slice = ensureSlice(text);
const full = sizeOf(text);
const part = sizeOf(slice);
const cores = availableParallelism();
console.log(`corpus: ${(full.bytes / 1e6).toFixed(1)} MB in ${full.files} files (${PINNED.join(' ')}); ${cores} cores`);
spawnSync('cat', listFiles(text).slice(0, 0)); // keep spawnSync warm for the first timed run
for (const path of listFiles(text)) readFileSync(path); // warm the page cache (untimed)

const rows = [];
const row = (tool, scope, bytes, result) =>
  rows.push({ tool, scope, mb: bytes / 1e6, ...result, mbps: bytes / 1e6 / result.seconds });
const skipGitleaks = process.argv.includes('--no-gitleaks');

row(`tollgate (${cores} worker threads)`, 'full', full.bytes, runTollgate(text, cores));
row('tollgate (1 thread)', 'full', full.bytes, runTollgate(text, 1));
row('secretlint 11 (preset-recommend)', 'full', full.bytes, runSecretlint(text));
row('tollgate (auto: 1 thread under 32 MB)', '20 MB slice', part.bytes, runTollgate(slice, 'auto'));
row('secretlint 11 (preset-recommend)', '20 MB slice', part.bytes, runSecretlint(slice));
if (!skipGitleaks) row('gitleaks 8.28 (WASM, 1 thread)', '20 MB slice', part.bytes, runGitleaks(slice));

const header = ['tool', 'corpus', 'MB', 'seconds', 'MB/s', 'peak RSS', 'findings'];
const cells = rows.map((r) => [
  r.tool,
  r.scope,
  r.mb.toFixed(1),
  r.seconds.toFixed(2),
  r.mbps.toFixed(1),
  Number.isNaN(r.rss) ? 'n/a' : `${r.rss.toFixed(0)} MB`,
  String(r.findings),
]);
const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
const print = (c) =>
  console.log(c.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '));
print(header);
for (const c of cells) print(c);
const ours = Math.max(rows[0].mbps, rows[1].mbps);
const theirs = rows[2].mbps;
console.log(
  `\ntollgate (best of the two) / secretlint on the full corpus: ${(ours / theirs).toFixed(2)}× (target ≥ 2×, ≥ 70 MB/s)`,
);
console.log(
  `tollgate / secretlint on the 20 MB slice: ${(rows[3].mbps / rows[4].mbps).toFixed(2)}× (both include process start-up)`,
);
if (!skipGitleaks)
  console.log(
    `tollgate / gitleaks-WASM on the 20 MB slice: ${(rows[3].mbps / rows[5].mbps).toFixed(0)}× (WASM build; native gitleaks is not installable here)`,
  );
console.log(`tollgate findings by rule (full corpus): ${JSON.stringify(rows[0].byRule)}`);
