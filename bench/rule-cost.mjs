#!/usr/bin/env node
/**
 * What the rule count costs the secret scanner: bytes scanned per CPU-second with only the oldest 253 built-in rules
 * (the set before the long tail of providers, listed in rules-253.json) against every built-in rule, on the same files
 * in one process, paired round by round. Rules are meant to cost per keyword hit, not per rule: the ratio all/oldest
 * should stay at 0.9 or above.
 *
 *   npm run build && node bench/rule-cost.mjs [--corpus DIR] [--mb N] [--rounds N]
 *
 * The corpus is read into memory first (default: up to 64 MB of bench/.cache/text, the npm library code
 * bench/secrets.mjs builds, in path order; the project's own node_modules when that is not built), so reading from
 * disk is no part of the figure. A file of git's storage, or (outside node_modules) a binary one, ends the bench:
 * the figure is about source; each file goes through `scanContent`, as every scanning thread runs it.
 * The restricted scanner is built in-process from the rule list: no option of the CLI changes the rule set.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isGitStorage, listCorpusFiles, median, printResult, refuseCorpus } from './measure.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argument = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : process.argv[at + 1];
};
const textCorpus = join(root, 'bench/.cache/text');
const corpusDir = resolve(argument('--corpus', existsSync(textCorpus) ? textCorpus : join(root, 'node_modules')));
// A project's node_modules holds images and native modules the scanner meets in real trees; elsewhere, text.
const binaryAllowed = corpusDir === join(root, 'node_modules');
const maxBytes = Number(argument('--mb', 64)) * 1e6;
const rounds = Number(argument('--rounds', 5));

const { builtinRules } = await import(join(root, 'dist/secrets/rules/index.js'));
const { SecretScanner } = await import(join(root, 'dist/secrets/scanner.js'));
const { emptyScanOutcome, scanContent } = await import(join(root, 'dist/secrets/scan-targets.js'));

const oldest = new Set(JSON.parse(readFileSync(join(root, 'bench/rules-253.json'), 'utf8')));
const scanners = {
  oldest: new SecretScanner(builtinRules.filter((rule) => oldest.has(rule.id))),
  all: new SecretScanner(builtinRules),
};

const files = [];
let bytes = 0;
for (const path of listCorpusFiles(corpusDir)) {
  const size = statSync(path).size;
  if (size > 16_000_000 || bytes + size > maxBytes) continue;
  files.push({ path: relative(corpusDir, path), content: readFileSync(path) });
  bytes += size;
}
refuseCorpus(
  `corpus ${corpusDir}`,
  files
    .filter((file) => isGitStorage(file.path) || (!binaryAllowed && file.content.subarray(0, 8192).includes(0)))
    .slice(0, 5)
    .map((file) => `${file.path} (${isGitStorage(file.path) ? 'git storage' : 'binary: a NUL byte'})`),
);

function scanAll(scanner) {
  const outcome = emptyScanOutcome();
  const options = { scanner };
  const started = process.cpuUsage();
  for (const file of files)
    scanContent({ path: file.path, read: async () => file.content }, file.content, options, outcome);
  const used = process.cpuUsage(started);
  return { cpu: (used.user + used.system) / 1e6, findings: outcome.findings.length };
}

const loadBefore = loadavg().map((value) => value.toFixed(2));
// One untimed pass each: compiles the rules that the corpus triggers and warms the JIT.
for (const scanner of Object.values(scanners)) scanAll(scanner);
const rates = { oldest: [], all: [] };
const ratios = [];
const findings = {};
for (let round = 0; round < rounds; round++) {
  const pair = {};
  for (const [name, scanner] of round % 2 === 0 ? Object.entries(scanners) : Object.entries(scanners).reverse()) {
    const result = scanAll(scanner);
    pair[name] = bytes / 1e6 / result.cpu;
    findings[name] = result.findings;
    rates[name].push(pair[name]);
  }
  ratios.push(pair.all / pair.oldest);
}
const loadAfter = loadavg().map((value) => value.toFixed(2));
const ratio = median(ratios);
printResult({
  name: 'rule-cost',
  line: [
    `secret rules, cost per hit: ${(bytes / 1e6).toFixed(1)} MB, ${files.length} files from ${relative(root, corpusDir) || corpusDir}`,
    `  ${scanners.oldest.rules.length} rules: ${median(rates.oldest).toFixed(1)} MB per CPU-second (${findings.oldest} findings)`,
    `  ${scanners.all.rules.length} rules: ${median(rates.all).toFixed(1)} MB per CPU-second (${findings.all} findings)`,
    `  ratio all/oldest ${ratio.toFixed(3)} (median of ${rounds} paired rounds: ${ratios.map((value) => value.toFixed(3)).join(' ')}; target >= 0.9)`,
    `  load average before ${loadBefore.join(' ')}, after ${loadAfter.join(' ')}`,
  ].join('\n'),
  values: {
    megabytes: bytes / 1e6,
    oldestRules: scanners.oldest.rules.length,
    allRules: scanners.all.rules.length,
    oldestMBPerCpuSecond: median(rates.oldest),
    allMBPerCpuSecond: median(rates.all),
    ratio,
    loadBefore,
    loadAfter,
  },
});
