#!/usr/bin/env node
/**
 * How often the placeholder filter drops a real token because its random part spells a stand-in's word by chance
 * (`tODo`, `XxXx`, `dUmMy`). For every built-in rule with match samples: many random tokens of each sample's shape
 * (its random runs redrawn from the same alphabet, the rule's keywords and every other character kept, a CRC32
 * checksum recomputed where the format has one), kept only where the rule's pattern still matches; then the share
 * that `isPlaceholder` drops, per rule file, for this build and for another (`--base DIR`, its dist/), same tokens.
 *
 *   node bench/placeholder-chance.mjs [--per-sample N] [--base /tmp/base] [--seed S]
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exitWithUsageIfAsked } from './measure.mjs';

exitWithUsageIfAsked(import.meta.url);

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : args[at + 1];
};
const perSample = Number(option('--per-sample', '20000'));
const baseDir = option('--base', undefined);
let state = Number(option('--seed', '1')) >>> 0;

const { providerFiles } = await import(join(root, 'dist/secrets/rules/index.js'));
const { tokenChecksum, cloudflareChecksum, hasValidTokenChecksum, hasValidCloudflareChecksum } = await import(
  join(root, 'dist/secrets/checksum.js')
);
const builds = [['this build', (await import(join(root, 'dist/secrets/placeholders.js'))).isPlaceholder]];
if (baseDir)
  builds.unshift(['base', (await import(join(resolve(baseDir), 'dist/secrets/placeholders.js'))).isPlaceholder]);

/** mulberry32: the same draws for both builds. */
function next() {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';

/** The alphabet a random run was drawn from, judged by the classes it shows (hex when it shows no other letter). */
function alphabetOf(run) {
  if (/^[0-9a-f]+$/.test(run) && /[a-f]/.test(run)) return `${DIGITS}abcdef`;
  if (/^[0-9A-F]+$/.test(run) && /[A-F]/.test(run)) return `${DIGITS}ABCDEF`;
  return (/[A-Z]/.test(run) ? UPPER : '') + (/[a-z]/.test(run) ? LOWER : '') + (/[0-9]/.test(run) ? DIGITS : '');
}

/** The secret a rule takes from `text`, with its offset: the `secret…` group, else group 1, else the match. */
function secretIn(rule, text) {
  const pattern = new RegExp(rule.pattern.source, rule.pattern.flags.replace('g', '').replace('y', '') + 'd');
  const match = pattern.exec(text);
  if (!match) return null;
  const groups = match.indices.groups ?? {};
  const name = Object.keys(groups).find((key) => key.startsWith('secret') && groups[key]);
  const span = name
    ? groups[name]
    : rule.secretGroup !== undefined
      ? match.indices[rule.secretGroup]
      : (match.indices[1] ?? match.indices[0]);
  return span ? { start: span[0], end: span[1], text: text.slice(span[0], span[1]) } : null;
}

/** Positions to redraw: runs of 8+ letters and digits, less the rule's keywords. */
function randomSlots(rule, secret) {
  const fixed = new Set();
  const lower = secret.toLowerCase();
  for (const keyword of rule.keywords) {
    for (let at = lower.indexOf(keyword.toLowerCase()); at !== -1; at = lower.indexOf(keyword.toLowerCase(), at + 1)) {
      for (let i = at; i < at + keyword.length; i++) fixed.add(i);
    }
  }
  const slots = [];
  for (const run of secret.matchAll(/[A-Za-z0-9]{8,}/g)) {
    const alphabet = alphabetOf(run[0]);
    for (let i = run.index; i < run.index + run[0].length; i++) if (!fixed.has(i)) slots.push([i, alphabet]);
  }
  return slots;
}

function redraw(secret, slots) {
  const chars = [...secret];
  for (const [i, alphabet] of slots) chars[i] = alphabet[Math.floor(next() * alphabet.length)];
  let out = chars.join('');
  if (hasValidTokenChecksum(secret)) {
    const cut = out.lastIndexOf('_') + 1;
    out = out.slice(0, cut + 30) + tokenChecksum(out.slice(cut, cut + 30));
  } else if (hasValidCloudflareChecksum(secret)) {
    const cut = out.indexOf('_') + 1;
    out = out.slice(0, cut + 40) + cloudflareChecksum(out.slice(cut, cut + 40));
  }
  return out;
}

const rows = [];
for (const [file, rules] of Object.entries(providerFiles())) {
  const row = { file, tokens: 0, dropped: builds.map(() => 0), examples: builds.map(() => []) };
  for (const rule of rules) {
    for (const sample of rule.samples.match) {
      const key = rule.samples.key ?? 'value';
      const text = [sample, `${key}=${sample}`, `${key}: "${sample}"`].find((t) => secretIn(rule, t));
      if (text === undefined) continue;
      const found = secretIn(rule, text);
      const slots = randomSlots(rule, found.text);
      if (slots.length < 8) continue;
      for (let n = 0; n < perSample; n++) {
        const secret = redraw(found.text, slots);
        const variant = text.slice(0, found.start) + secret + text.slice(found.end);
        const again = secretIn(rule, variant);
        if (!again || again.text !== secret) continue;
        row.tokens++;
        builds.forEach(([, isPlaceholder], b) => {
          if (!isPlaceholder(secret)) return;
          row.dropped[b]++;
          if (row.examples[b].length < 2) row.examples[b].push(`${rule.id}: ${secret}`);
        });
      }
    }
  }
  if (row.tokens > 0) rows.push(row);
}

const rate = (dropped, tokens) => (dropped === 0 ? '0' : `1 in ${Math.round(tokens / dropped).toLocaleString('en')}`);
console.log(`random tokens per match sample: ${perSample}; builds: ${builds.map(([name]) => name).join(', ')}`);
console.log(`| rule file | tokens | ${builds.map(([name]) => `dropped (${name})`).join(' | ')} |`);
console.log(`|---|---|${builds.map(() => '---|').join('')}`);
rows.sort((a, b) => b.dropped[0] / b.tokens - a.dropped[0] / a.tokens);
for (const row of rows) {
  if (row.dropped.every((d) => d === 0) && !args.includes('--all')) continue;
  console.log(
    `| ${row.file} | ${row.tokens} | ${row.dropped.map((d) => `${d} (${rate(d, row.tokens)})`).join(' | ')} |`,
  );
}
const total = rows.reduce((sum, row) => sum + row.tokens, 0);
const dropped = builds.map((_, b) => rows.reduce((sum, row) => sum + row.dropped[b], 0));
console.log(`| all ${rows.length} files | ${total} | ${dropped.map((d) => `${d} (${rate(d, total)})`).join(' | ')} |`);
if (args.includes('--examples'))
  for (const row of rows) for (const list of row.examples) for (const e of list) console.log(e);
