#!/usr/bin/env node
/**
 * Writes TruffleHog's detector pattern-test inputs (each case's `input:` in pkg/detectors/<name>/*_test.go: true when
 * its `want:` lists a finding, false when an invalid value must give none) as one file each into OUT/trufflehog/,
 * with OUT/trufflehog/labels.json, for bench/recall-public.mjs. Nothing here is committed: the examples are
 * TruffleHog's, read from a local copy.
 *
 *   git clone --depth 1 https://github.com/trufflesecurity/trufflehog /tmp/trufflehog
 *   node bench/recall/extract-trufflehog-examples.mjs /tmp/trufflehog /tmp/recall-set
 *
 * An input built in a way this reader does not evaluate (a loop, a helper of the test's own) is left out.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { evaluateAssignments, seededRandom, tokenize } from './go-source.mjs';
import { looksHandTyped } from './hand-typed.mjs';

const [source, out] = process.argv.slice(2).map((arg) => resolve(arg));
if (!source || !out) {
  console.error('usage: node bench/recall/extract-trufflehog-examples.mjs TRUFFLEHOG_CHECKOUT OUT_DIR');
  process.exit(2);
}
const detectors = join(source, 'pkg/detectors');

function testFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...testFiles(path));
    else if (name.endsWith('_test.go') && !name.endsWith('_integration_test.go')) out.push(path);
  }
  return out;
}

/** Long value-like words of an input: what decides whether it was typed by hand. */
const valueWords = (text) => text.match(/[A-Za-z0-9_+/=-]{16,}/g) ?? [];

/** Whether a test case's `want:` lists a finding: `[]string{x}` does, `[]string{}` and `nil` do not. */
function wantsFinding(value, tokens) {
  if (Array.isArray(value)) return value.length > 0;
  if (tokens[0]?.value === 'nil') return false;
  const brace = tokens.findIndex((token) => token.value === '{');
  return brace !== -1 && tokens[brace + 1]?.value !== '}';
}

/**
 * A case that expects nothing only because the keyword is far from the value, or a repeat of a found value, says
 * nothing about a secret: left out. A case that expects nothing from an invalid value is a false example.
 */
const SKIPPED_CASE = /duplicate|prefix range|not close|out of range/i;

const examples = [];
for (const path of testFiles(detectors)) {
  const provider = relative(detectors, path).split('/')[0];
  let current = {};
  const cases = [];
  evaluateAssignments(tokenize(readFileSync(path, 'utf8')), {
    random: seededRandom(provider),
    sample: () => undefined,
    onField: (field, value, tokens) => {
      if (field === 'name') current = { name: typeof value === 'string' ? value : '' };
      else if (field === 'input') current.input = value;
      else if (field === 'want' && 'input' in current) {
        cases.push({ ...current, found: wantsFinding(value, tokens) });
        current = {};
      }
    },
  });
  const seen = new Set();
  for (const { name, input, found } of cases) {
    if (typeof input !== 'string' || input.trim() === '' || SKIPPED_CASE.test(name) || seen.has(input)) continue;
    if (!found && !/invalid|false|fake|not|wrong|bad/i.test(name)) continue;
    seen.add(input);
    examples.push({ text: input.endsWith('\n') ? input : `${input}\n`, label: found, provider });
  }
}

const dir = join(out, 'trufflehog');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const labels = examples.map((example, index) => {
  const name = `${String(index).padStart(5, '0')}.txt`;
  writeFileSync(join(dir, name), example.text);
  return {
    file: name,
    label: example.label,
    provider: example.provider,
    handTyped: valueWords(example.text).some(looksHandTyped),
  };
});
writeFileSync(join(dir, 'labels.json'), `${JSON.stringify({ source: 'trufflehog', labels }, null, 1)}\n`);
const positives = labels.filter((l) => l.label).length;
console.log(`trufflehog: ${positives} true and ${labels.length - positives} false examples into ${dir}`);
