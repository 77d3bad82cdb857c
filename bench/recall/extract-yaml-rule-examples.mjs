#!/usr/bin/env node
/**
 * Writes the examples of a YAML rule collection (Nosey Parker's and Kingfisher's rule files: `rules: [{ id,
 * examples, negative_examples }]`) as one file each into OUT/NAME/, with OUT/NAME/labels.json, for
 * bench/recall-public.mjs. Nothing here is committed: the examples are those projects', read from local copies.
 *
 *   git clone --depth 1 https://github.com/praetorian-inc/noseyparker /tmp/noseyparker
 *   node bench/recall/extract-yaml-rule-examples.mjs \
 *     /tmp/noseyparker/crates/noseyparker/data/default/builtin/rules noseyparker /tmp/recall-set
 *   git clone --depth 1 https://github.com/mongodb/kingfisher /tmp/kingfisher
 *   node bench/recall/extract-yaml-rule-examples.mjs /tmp/kingfisher/data/rules kingfisher /tmp/recall-set
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { looksHandTyped } from './hand-typed.mjs';

const [rulesArg, name, outArg] = process.argv.slice(2);
if (!rulesArg || !name || !outArg || !/^[a-z0-9-]+$/.test(name)) {
  console.error('usage: node bench/recall/extract-yaml-rule-examples.mjs RULES_DIR NAME OUT_DIR (NAME: a-z, 0-9, -)');
  process.exit(2);
}
const rulesDir = resolve(rulesArg);

const examples = [];
for (const file of readdirSync(rulesDir).filter((f) => /\.ya?ml$/.test(f))) {
  const provider = basename(file).replace(/\.ya?ml$/, '');
  let document;
  try {
    document = parse(readFileSync(join(rulesDir, file), 'utf8'));
  } catch {
    continue;
  }
  for (const rule of document?.rules ?? []) {
    for (const [field, label] of [
      ['examples', true],
      ['negative_examples', false],
    ])
      for (const text of Array.isArray(rule[field]) ? rule[field] : [])
        if (typeof text === 'string' && text.trim() !== '')
          examples.push({ text: text.endsWith('\n') ? text : `${text}\n`, label, provider, rule: rule.id });
  }
}

// A false example that is another rule's true one is a secret all the same: left out.
const trueTexts = new Set(examples.filter((e) => e.label).map((e) => e.text.trim()));
const kept = examples.filter((e) => e.label || !trueTexts.has(e.text.trim()));

const out = join(resolve(outArg), name);
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const valueWords = (text) => text.match(/[A-Za-z0-9_+/=-]{12,}/g) ?? [];
const labels = kept.map((example, index) => {
  const file = `${String(index).padStart(5, '0')}.txt`;
  writeFileSync(join(out, file), example.text);
  return {
    file,
    label: example.label,
    provider: example.provider,
    rule: example.rule,
    handTyped: valueWords(example.text).some(looksHandTyped),
  };
});
writeFileSync(join(out, 'labels.json'), `${JSON.stringify({ source: name, labels }, null, 1)}\n`);
const positives = labels.filter((l) => l.label).length;
console.log(`${name}: ${positives} true and ${labels.length - positives} false examples into ${out}`);
