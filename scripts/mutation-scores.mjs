#!/usr/bin/env node
// The mutation score of each file of the gate's decision core, from Stryker's JSON report (reports/mutation/
// mutation.json, written by `npm run mutation`). Stryker's own `thresholds.break` judges the score of all files
// together, so one weak file hides behind four strong ones; this fails when any single file scores under the break.
//
//   node scripts/mutation-scores.mjs [report.json]
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const reportPath = resolve(process.argv[2] ?? join(root, 'reports', 'mutation', 'mutation.json'));
const { default: config } = await import(join(root, 'stryker.config.mjs'));
const breakAt = config.thresholds.break;

if (!existsSync(reportPath)) {
  console.error(`mutation-scores: ${reportPath} is missing: run \`npm run mutation\` first`);
  process.exit(2);
}
const report = JSON.parse(readFileSync(reportPath, 'utf8'));

// Stryker's definition: detected (killed or timed out) over valid mutants (detected, survived, no coverage).
const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

let failed = 0;
const rows = [];
for (const file of config.mutate) {
  const mutants = report.files[file]?.mutants;
  if (!mutants) {
    rows.push(`${file}: no mutants in the report`);
    failed++;
    continue;
  }
  const detected = mutants.filter((mutant) => DETECTED.has(mutant.status)).length;
  const undetected = mutants.filter((mutant) => UNDETECTED.has(mutant.status));
  const valid = detected + undetected.length;
  const score = valid === 0 ? 100 : (detected / valid) * 100;
  const low = score < breakAt;
  if (low) failed++;
  rows.push(`${low ? 'LOW ' : ''}${file}: ${score.toFixed(1)} % (${detected} of ${valid} mutants detected)`);
  for (const mutant of low ? undetected : []) {
    const at = mutant.location.start;
    rows.push(`    ${mutant.status.toLowerCase()}: ${mutant.mutatorName} at ${file}:${at.line}:${at.column}`);
  }
}
for (const row of rows) console.log(row);
if (failed > 0) {
  console.log(
    `mutation-scores: ${failed} file(s) under ${breakAt} %: kill the survivors above with tests of behaviour`,
  );
  process.exit(1);
}
console.log(`mutation-scores: every file at or above ${breakAt} %`);
