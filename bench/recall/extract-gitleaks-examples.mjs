#!/usr/bin/env node
/**
 * Writes gitleaks' own per-rule examples (the `tps` it must find and the `fps` it must not, in
 * cmd/generate/config/rules/*.go) as one file each into OUT/gitleaks/, with OUT/gitleaks/labels.json, for
 * bench/recall-public.mjs. Nothing here is committed: the examples are gitleaks', read from a local copy.
 *
 *   git clone --depth 1 https://github.com/gitleaks/gitleaks /tmp/gitleaks
 *   node bench/recall/extract-gitleaks-examples.mjs /tmp/gitleaks /tmp/recall-set
 *
 * Generated samples (`secrets.NewSecret(<regex>)`) are drawn with a fixed seed, so the set is the same every run;
 * `utils.GenerateSampleSecrets(id, secret)` is expanded into three of its syntaxes, a different three per call.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { evaluateAssignments, seededRandom, tokenize } from './go-source.mjs';
import { looksHandTyped } from './hand-typed.mjs';

const [source, out] = process.argv.slice(2).map((arg) => resolve(arg));
if (!source || !out) {
  console.error('usage: node bench/recall/extract-gitleaks-examples.mjs GITLEAKS_CHECKOUT OUT_DIR');
  process.exit(2);
}
const rulesDir = join(source, 'cmd/generate/config/rules');

/** The syntaxes gitleaks' GenerateSampleSecrets writes a secret in ({i} identifier, {I} upper-cased, {s} secret). */
const SYNTAXES = [
  ['env', '{I}_TOKEN={s}\n'],
  ['yaml', '{i}_token: "{s}"\n'],
  ['py', "{i}Token = '{s}'\n"],
  ['json', '{\n    "{i}_token": "{s}"\n}\n'],
  ['go', '{i}Token := "{s}"\n'],
  ['ini', '{i}Token = {s}\n'],
  ['java', 'String {i}Token = "{s}";\n'],
  ['xml', '<{i}Token>\n    {s}\n</{i}Token>\n'],
  ['mk', '{i}_TOKEN := "{s}"\n'],
  ['rb', '  "{i}Token" => "{s}"\n'],
  ['kt', 'System.setProperty("{I}_TOKEN", "{s}")\n'],
];
let syntaxTurn = 0;
function sample(identifier, secret) {
  const picked = [0, 1, 2].map(() => SYNTAXES[syntaxTurn++ % SYNTAXES.length]);
  return picked.map(([ext, template]) => ({
    ext,
    text: template.replaceAll('{i}', identifier).replaceAll('{I}', identifier.toUpperCase()).replaceAll('{s}', secret),
    secret,
  }));
}

const examples = [];
for (const file of readdirSync(rulesDir).filter((name) => name.endsWith('.go'))) {
  const text = readFileSync(join(rulesDir, file), 'utf8');
  const provider = basename(file, '.go');
  // One rule per function: its tps and fps are that function's variables.
  for (const body of text.split(/\nfunc /).slice(1)) {
    const rule = /RuleID:\s*"([^"]+)"/.exec(body)?.[1] ?? /^[A-Za-z0-9_]+/.exec(body)?.[0];
    const variables = evaluateAssignments(tokenize(body.slice(body.indexOf('{'))), {
      random: seededRandom(`${provider}/${rule}`),
      sample: (identifier, secret) => sample(identifier, secret),
    });
    for (const [name, label] of [
      ['tps', true],
      ['fps', false],
    ]) {
      const value = variables.get(name);
      for (const item of Array.isArray(value) ? value : []) {
        const entry = typeof item === 'string' ? { ext: 'txt', text: `${item}\n`, secret: item } : item;
        examples.push({ ...entry, label, provider, rule });
      }
    }
  }
}

// A false example that is another rule's true one (Cloudflare's key kinds) is a secret all the same: left out.
const trueTexts = new Set(examples.filter((e) => e.label).map((e) => e.text.trim()));
const kept = examples.filter((e) => e.label || !trueTexts.has(e.text.trim()));

const dir = join(out, 'gitleaks');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const labels = kept.map((example, index) => {
  const name = `${String(index).padStart(5, '0')}.${example.ext}`;
  writeFileSync(join(dir, name), example.text);
  return {
    file: name,
    label: example.label,
    provider: example.provider,
    rule: example.rule,
    handTyped: looksHandTyped(example.secret),
  };
});
writeFileSync(join(dir, 'labels.json'), `${JSON.stringify({ source: 'gitleaks', labels }, null, 1)}\n`);
const positives = labels.filter((l) => l.label).length;
console.log(`gitleaks: ${positives} true and ${labels.length - positives} false examples into ${dir}`);
