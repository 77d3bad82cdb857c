#!/usr/bin/env node
/**
 * The keyword prefilter's per-character pass (`KeywordHits.find`) alone, this checkout against another built one, in
 * one process, paired round by round: CPU per character and the ratio. Each runs its own scanner's automaton (every
 * built-in rule) over the same texts with the accepting states the scan uses for each path, and the hits (count and a
 * checksum of where they end and what ends there) must be the same, or the bench fails.
 *
 *   npm run build && node bench/keyword-loop.mjs --against DIR [--mb N] [--rounds N] [--bytes]
 *
 * Texts: every fourth file of bench/.cache/text (the npm corpus bench/secrets.mjs builds) up to N MB (default 24),
 * read into memory first: ASCII files as one-byte strings, the others decoded as UTF-8 (two-byte strings), as the scan
 * holds them; with --bytes, every file as its bytes through `KeywordHits.findBytes`, as the byte scan reads them.
 * DIR is a checkout with `dist/` built (for example a `git worktree` of the base commit).
 */
import { readFileSync } from 'node:fs';
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
const against = argument('--against');
if (!against) {
  console.error('bench/keyword-loop.mjs: --against DIR is required (a checkout with dist/ built)');
  process.exit(2);
}
const maxBytes = Number(argument('--mb', 24)) * 1e6;
const rounds = Number(argument('--rounds', 11));
const overBytes = process.argv.includes('--bytes');
const corpus = join(root, 'bench/.cache/text');

const all = listCorpusFiles(corpus);
refuseCorpus(`corpus ${corpus}`, all.filter(isGitStorage).slice(0, 5));
const texts = [];
let bytes = 0;
for (let index = 0; index < all.length && bytes < maxBytes; index += 4) {
  const content = readFileSync(all[index]);
  bytes += content.length;
  const ascii = !content.some((byte) => byte > 127);
  texts.push({
    path: relative(corpus, all[index]),
    text: overBytes ? content : ascii ? content.toString('latin1') : content.toString('utf8'),
  });
}
const chars = texts.reduce((sum, { text }) => sum + text.length, 0);

/** A pass over every text with `checkout`'s scanner (its private automaton and accepting states, as the scan uses). */
async function passOf(checkout) {
  const { builtinRules } = await import(join(checkout, 'dist/secrets/rules/index.js'));
  const { SecretScanner } = await import(join(checkout, 'dist/secrets/scanner.js'));
  const { KeywordHits } = await import(join(checkout, 'dist/secrets/keyword-hits.js'));
  const scanner = new SecretScanner(builtinRules);
  const { automaton } = scanner;
  const accepting = texts.map(({ path }) => scanner.accepting.for(scanner.pathFacts.of(path).exempt));
  const found = new KeywordHits();
  return () => {
    let hits = 0;
    let sum = 0;
    for (let index = 0; index < texts.length; index++) {
      const { text } = texts[index];
      let state = 0;
      for (let next = 0; next < text.length; next = found.at) {
        if (overBytes) found.findBytes(automaton, accepting[index], text, next, text.length, state);
        else found.find(automaton, accepting[index], text, next, text.length, state);
        state = found.state;
        hits += found.count;
        for (let hit = 0; hit < found.count; hit++)
          sum += found.ends[hit] + automaton.outputs[found.states[hit]].length;
      }
    }
    return `${hits} hits, checksum ${sum}`;
  };
}

const passes = { this: await passOf(root), against: await passOf(resolve(against)) };
const cpu = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1e3;
};
const loadBefore = loadavg().map((value) => value.toFixed(2));
const hits = { this: passes.this(), against: passes.against() };
if (hits.this !== hits.against) {
  console.error(`bench/keyword-loop.mjs: the hits differ: this ${hits.this}, against ${hits.against}`);
  process.exit(1);
}
const times = { this: [], against: [] };
const ratios = [];
for (let round = 0; round < rounds; round++) {
  for (const name of round % 2 === 0 ? ['this', 'against'] : ['against', 'this']) {
    const started = cpu();
    passes[name]();
    times[name].push(cpu() - started);
  }
  ratios.push(times.this.at(-1) / times.against.at(-1));
}
const loadAfter = loadavg().map((value) => value.toFixed(2));
const perChar = (list) => (median(list) * 1e6) / chars;
printResult({
  name: 'keyword-loop',
  line: [
    `keyword pass${overBytes ? ' over bytes' : ''}: ${(chars / 1e6).toFixed(1)} M characters, ${texts.length} files; ${hits.this}`,
    `  this ${perChar(times.this).toFixed(2)} ns, against ${perChar(times.against).toFixed(2)} ns CPU per character`,
    `  ratio this/against ${median(ratios).toFixed(3)} (median of ${rounds} paired rounds: ${ratios.map((value) => value.toFixed(3)).join(' ')})`,
    `  load average before ${loadBefore.join(' ')}, after ${loadAfter.join(' ')}`,
  ].join('\n'),
  values: { characters: chars, ratio: median(ratios), loadBefore, loadAfter },
});
