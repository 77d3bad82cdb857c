#!/usr/bin/env node
/**
 * What the rule count costs the secret scanner: bytes scanned per CPU-second with only the oldest 253 built-in rules
 * (the set before the long tail of providers, listed in rules-253.json) against every built-in rule, on the same files
 * paired round by round. Rules are meant to cost per keyword hit, not per rule: the ratio all/oldest
 * should stay at 0.9 or above.
 *
 *   npm run build && node bench/rule-cost.mjs [--corpus DIR] [--mb N] [--rounds N] [--processes N] [--piece MB]
 *
 * The figure is the median of every round of `--processes` fresh processes (default 3), `--rounds` each (default 3).
 * Each round scans the corpus once per rule set in pieces of about `--piece` MB (default 16), the sets taking turns
 * piece by piece, so load on a shared machine lands on both alike; each process builds the two scanners and warms
 * them in the other order than the one before. At load 13-20, whole 64 MB passes taking turns gave rounds from 0.66
 * to 1.03 in one run, 16 MB pieces 0.78 to 0.95; and one process's median differs from the next one's by up to 0.09,
 * which one process could not show.
 *
 * The corpus is read into memory first (default: up to 64 MB of bench/.cache/text, the npm library code
 * bench/secrets.mjs builds, in path order; the project's own node_modules when that is not built), so reading from
 * disk is no part of the figure. A file of git's storage, or (outside node_modules) a binary one, ends the bench:
 * the figure is about source; each file goes through `scanContent`, as every scanning thread runs it.
 * The restricted scanner is built in-process from the rule list: no option of the CLI changes the rule set.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exitWithUsageIfAsked, isGitStorage, listCorpusFiles, median, printResult, refuseCorpus } from './measure.mjs';

exitWithUsageIfAsked(import.meta.url);

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
const rounds = Number(argument('--rounds', 3));
const processes = Number(argument('--processes', 3));
const child = argument('--child');
if (child === undefined) {
  runProcesses();
  process.exit(0);
}
const allFirst = Number(child) % 2 === 1;

const { builtinRules } = await import(join(root, 'dist/secrets/rules/index.js'));
const { SecretScanner } = await import(join(root, 'dist/secrets/scanner.js'));
const { emptyScanOutcome, scanContent } = await import(join(root, 'dist/secrets/scan-targets.js'));

const oldest = new Set(JSON.parse(readFileSync(join(root, 'bench/rules-253.json'), 'utf8')));
const scanners = {};
for (const name of allFirst ? ['all', 'oldest'] : ['oldest', 'all'])
  scanners[name] = new SecretScanner(
    name === 'all' ? builtinRules : builtinRules.filter((rule) => oldest.has(rule.id)),
  );

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

// Each round scans the corpus once per rule set, in pieces of about `--piece` MB, the two sets taking turns piece by
// piece (which goes first alternates by piece and by round), so a burst of load on a shared machine lands on both
// sides alike rather than on one whole pass. (Collecting garbage before each piece, so that neither side pays for the
// other's, made both three times slower: a full collection throws away compiled regular expressions.)
const pieceBytes = Number(argument('--piece', 8)) * 1e6;
const pieces = [];
for (let at = 0, size = 0, from = 0; at < files.length; at++) {
  size += files[at].content.length;
  if (size >= pieceBytes || at === files.length - 1) {
    pieces.push(files.slice(from, at + 1));
    from = at + 1;
    size = 0;
  }
}

/** One pass of `scanner` over `piece`: CPU seconds (user and system, this process) and findings. */
function scanPiece(scanner, piece) {
  const outcome = emptyScanOutcome();
  const options = { scanner };
  const started = process.cpuUsage();
  for (const file of piece)
    scanContent({ path: file.path, read: async () => file.content }, file.content, options, outcome);
  const used = process.cpuUsage(started);
  return { cpu: (used.user + used.system) / 1e6, findings: outcome.findings.length };
}

/** Per rule set and piece, the least CPU seconds a pass over that piece took in any round. */
const least = { oldest: pieces.map(() => Number.POSITIVE_INFINITY), all: pieces.map(() => Number.POSITIVE_INFINITY) };

/** A round: both rule sets over every piece, taking turns; CPU seconds and findings per set. */
function scanRound(round, timed = true) {
  const cpu = { oldest: 0, all: 0 };
  const found = { oldest: 0, all: 0 };
  for (const [index, piece] of pieces.entries()) {
    const names = (index + round + Number(allFirst)) % 2 === 0 ? ['oldest', 'all'] : ['all', 'oldest'];
    for (const name of names) {
      const result = scanPiece(scanners[name], piece);
      cpu[name] += result.cpu;
      found[name] += result.findings;
      if (timed) least[name][index] = Math.min(least[name][index], result.cpu);
    }
  }
  return { cpu, found };
}

// One untimed round: compiles the rules that the corpus triggers and warms the JIT.
scanRound(1, false);
const rates = { oldest: [], all: [] };
const ratios = [];
let findings = { oldest: 0, all: 0 };
for (let round = 0; round < rounds; round++) {
  const { cpu, found } = scanRound(round);
  for (const name of ['oldest', 'all']) rates[name].push(bytes / 1e6 / cpu[name]);
  findings = found;
  ratios.push(cpu.oldest / cpu.all);
}
const rules = { oldest: scanners.oldest.rules.length, all: scanners.all.rules.length };
// The ratio of each set's least pieces: load on a shared machine only ever adds CPU time to a piece (other processes
// take the caches and the core), so the least of a piece's rounds is the one nearest a quiet machine's.
const sum = (values) => values.reduce((total, value) => total + value, 0);
const best = sum(least.oldest) / sum(least.all);
process.stdout.write(
  `${JSON.stringify({ bytes, files: files.length, pieces: pieces.length, rules, rates, ratios, best, least, findings })}\n`,
);

/** The parent: `processes` children in turn, each its rounds; the figures of them all. */
function runProcesses() {
  const loadBefore = loadavg().map((value) => value.toFixed(2));
  const runs = [];
  for (let index = 0; index < processes; index++) {
    const args = [fileURLToPath(import.meta.url), ...process.argv.slice(2), '--child', String(index)];
    const run = spawnSync(process.execPath, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    if (run.status !== 0) process.exit(run.status ?? 1);
    runs.push(JSON.parse(run.stdout.trim().split('\n').pop()));
  }
  const loadAfter = loadavg().map((value) => value.toFixed(2));
  const [first] = runs;
  const all = runs.flatMap((run) => run.ratios);
  const byProcess = runs.map((run) => run.best);
  // Per piece, the least of every process's rounds (a process's compiled code differs a little from the next one's).
  const pooled = (name) =>
    first.least[name].map((_, index) => Math.min(...runs.map((run) => run.least[name][index]))).reduce((a, b) => a + b);
  const ratio = pooled('oldest') / pooled('all');
  const roundsRatio = median(all);
  const spread = [Math.min(...all), Math.max(...all)];
  const rate = (name) => first.bytes / 1e6 / pooled(name);
  const fixed = (values) => values.map((value) => value.toFixed(3)).join(' ');
  printResult({
    name: 'rule-cost',
    line: [
      `secret rules, cost per hit: ${(first.bytes / 1e6).toFixed(1)} MB, ${first.files} files from ${relative(root, corpusDir) || corpusDir}`,
      `  ${first.rules.oldest} rules: ${rate('oldest').toFixed(1)} MB per CPU-second (${first.findings.oldest} findings)`,
      `  ${first.rules.all} rules: ${rate('all').toFixed(1)} MB per CPU-second (${first.findings.all} findings)`,
      `  ratio all/oldest ${ratio.toFixed(3)} (each piece's least CPU in ${all.length} rounds of ${runs.length} processes, summed; per process ${fixed(byProcess)}; target >= 0.9)`,
      `  rounds: ${runs.map((run) => fixed(run.ratios)).join(' | ')} (median ${roundsRatio.toFixed(3)}, spread ${spread.map((value) => value.toFixed(3)).join('-')}); ${first.pieces} pieces a round, the rule sets taking turns`,
      `  load average before ${loadBefore.join(' ')}, after ${loadAfter.join(' ')}`,
    ].join('\n'),
    values: {
      megabytes: first.bytes / 1e6,
      oldestRules: first.rules.oldest,
      allRules: first.rules.all,
      oldestMBPerCpuSecond: rate('oldest'),
      allMBPerCpuSecond: rate('all'),
      ratio,
      ratioByProcess: byProcess,
      roundsRatio,
      ratioSpread: spread,
      loadBefore,
      loadAfter,
    },
  });
}
