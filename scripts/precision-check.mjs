#!/usr/bin/env node
// `npm run precision`: the secret scanner's precision on real code nobody wrote a rule from. It scans the packages
// `npm ci` installed (pinned by package-lock.json: about 300 MB of real JavaScript, TypeScript, WASM, native binaries,
// schemas and docs, with no live credential in them) with the built CLI, as a user would, and fails on any blocking
// finding that test/fixtures/precision/node-modules.json does not list and explain. A rule that starts firing on real
// code fails CI here instead of in a user's project.
//
// Extra folders can be named to see their counts too (they are not compared with anything):
//   node scripts/precision-check.mjs ../corpora/rails ../corpora/flask
// `--update` rewrites the expected file from this run, keeping the explanations already written for findings it keeps.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'bin', 'tollgate.cjs');
const expectedFile = join(root, 'test', 'fixtures', 'precision', 'node-modules.json');
const args = process.argv.slice(2);
const update = args.includes('--update');
const extra = args.filter((arg) => !arg.startsWith('--'));

if (!existsSync(join(root, 'dist', 'bundle', 'cli', 'tollgate.cjs'))) {
  console.error('precision-check: dist/bundle is missing: run `npm run build` (or `node scripts/bundle.mjs`) first');
  process.exit(2);
}

/** Scans one folder from a directory outside any repository (a folder inside one would honour its .gitignore). */
function scan(folder, paths = [folder]) {
  const cwd = mkdtempSync(join(tmpdir(), 'tollgate-precision-'));
  const home = join(cwd, 'home');
  try {
    const result = spawnSync(process.execPath, [cli, 'scan', ...paths, '--format', 'json'], {
      cwd,
      env: { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), TOLLGATE_NO_TELEMETRY: '1' },
      encoding: 'utf8',
      maxBuffer: 512 * 1024 * 1024,
    });
    if (result.status !== 0 && result.status !== 1) {
      console.error(
        `precision-check: scan of ${folder} exited ${result.status}: ${result.stderr.trim().split('\n')[0]}`,
      );
      process.exit(2);
    }
    return JSON.parse(result.stdout);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

/** A finding's identity that survives another checkout: rule, path inside the scanned folder, fingerprint. */
const keyOf = (finding) => `${finding.ruleId}\t${finding.path}\t${finding.fingerprint}`;
const blockingOf = (report, folder) =>
  report.findings
    .filter((finding) => !finding.fixture && !finding.baselined)
    .map((finding) => ({ ...finding, path: relative(folder, finding.path) }));

function summary(name, report) {
  const megabytes = report.scannedBytes / 1e6;
  return `${name}: ${report.scannedFiles} files, ${megabytes.toFixed(0)} MB, ${report.findings.length} findings, ${report.blocking} blocking, ${report.fixtures?.count ?? 0} fixtures, ${report.skipped.length} skipped`;
}

let failed = false;
const modules = join(root, 'node_modules');
// Every installed package, not the tools' caches beside them (`.vite`, `.cache`: written by the test run itself).
const packages = readdirSync(modules)
  .filter((name) => !name.startsWith('.'))
  .map((name) => join(modules, name));
const report = scan(modules, packages);
console.log(summary('node_modules (package-lock.json)', report));
const blocking = blockingOf(report, modules);
const expected = existsSync(expectedFile) ? JSON.parse(readFileSync(expectedFile, 'utf8')) : { findings: [] };
const known = new Map(expected.findings.map((entry) => [keyOf(entry), entry]));
const seen = new Set();
for (const finding of blocking) {
  const key = keyOf(finding);
  seen.add(key);
  if (known.has(key)) continue;
  failed = !update;
  console.log(
    `  new blocking finding: ${finding.ruleId} (${finding.severity}) ${finding.path}:${finding.line}:${finding.column} ${finding.masked}`,
  );
}
for (const [key, entry] of known) {
  if (!seen.has(key)) console.log(`  gone (remove it with --update): ${entry.ruleId} ${entry.path}`);
}
if (update) {
  const findings = blocking.map((finding) => ({
    ruleId: finding.ruleId,
    path: finding.path,
    fingerprint: finding.fingerprint,
    why: known.get(keyOf(finding))?.why ?? 'TODO: say why this is not a secret, or fix the rule',
  }));
  const note =
    'Blocking findings of `npm run precision` on the installed devDependencies, each explained. None is a real secret.';
  writeFileSync(expectedFile, `${JSON.stringify({ note, findings }, null, 2)}\n`);
  console.log(`precision-check: wrote ${relative(root, expectedFile)} (${findings.length} findings)`);
}

for (const folder of extra) {
  const absolute = resolve(folder);
  const result = scan(absolute);
  console.log(summary(folder, result));
  for (const finding of blockingOf(result, absolute)) {
    console.log(
      `  blocking: ${finding.ruleId} (${finding.severity}) ${finding.path}:${finding.line} ${finding.masked}`,
    );
  }
}

if (failed) {
  console.log(
    'precision-check: a rule now blocks on real code with no secret in it. Fix the rule, or explain the finding in test/fixtures/precision/node-modules.json (npm run precision -- --update)',
  );
  process.exit(1);
}
