#!/usr/bin/env node
// `npm run bench`: every benchmark, one after the other (they compete for the same two cores otherwise). Each prints
// its figures as ratios against a baseline measured in the same run; a bench fails (and so does this) only when what
// it measured is not what it claims: a corpus that holds something other than source, a run that did the wrong work.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const scripts = readdirSync(here)
  .filter((name) => name.endsWith('.mjs') && !['run-all.mjs', 'measure.mjs'].includes(name))
  // The secret-scanner throughput bench builds a 200 MB corpus: it runs as `npm run bench:secrets`, or when named.
  .filter((name) => (only.length === 0 ? name !== 'secrets.mjs' : only.some((wanted) => name.startsWith(wanted))))
  .sort();
const failed = [];
for (const script of scripts) {
  if (!existsSync(join(here, script))) continue;
  console.log(`\n== ${script}`);
  const result = spawnSync(
    process.execPath,
    [join(here, script), ...process.argv.slice(2).filter((arg) => arg.startsWith('-'))],
    { stdio: 'inherit' },
  );
  if (result.status !== 0) {
    failed.push(script);
    console.log(`${script} exited ${result.status}`);
  }
}
// Loud at the end too: a failure scrolled past hundreds of lines ago (a corpus that is not source, a wrong count of
// changed files) must not read as a finished bench.
if (failed.length > 0) console.error(`\nbench FAILED: ${failed.join(', ')} (see its error above)`);
process.exit(failed.length > 0 ? 1 : 0);
