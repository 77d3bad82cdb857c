#!/usr/bin/env node
// `npm run docs:rules`: writes docs/validators/secret-rules.md and the rule and provider counts in README.md and
// docs/validators/secrets.md from the built rules (dist/), so that the docs say what the rules are.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { renderRuleTable, RULE_TABLE_PATH, ruleCounts, withRuleCounts } = await import(
  join(root, 'dist/secrets/rule-docs.js')
);
writeFileSync(join(root, RULE_TABLE_PATH), renderRuleTable());
for (const path of ['README.md', 'docs/validators/secrets.md']) {
  const file = join(root, path);
  writeFileSync(file, withRuleCounts(readFileSync(file, 'utf8')));
}
const { rules, providers } = ruleCounts();
console.log(`${RULE_TABLE_PATH}, README.md, docs/validators/secrets.md: ${rules} rules for ${providers} providers`);
