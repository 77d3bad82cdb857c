#!/usr/bin/env node
// `npm run bench`: every benchmark, one after the other (they compete for the same two cores otherwise). Each prints
// its figures as ratios against a baseline measured in the same run; none of them fails the build.
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
let failed = 0;
for (const script of scripts) {
  if (!existsSync(join(here, script))) continue;
  console.log(`\n== ${script}`);
  const result = spawnSync(
    process.execPath,
    [join(here, script), ...process.argv.slice(2).filter((arg) => arg.startsWith('-'))],
    { stdio: 'inherit' },
  );
  if (result.status !== 0) {
    failed++;
    console.log(`${script} exited ${result.status}`);
  }
}
process.exit(failed > 0 ? 1 : 0);
