// Speed of the advisories lockfile path: parse a 5,000-package package-lock.json twice (base and change) and diff
// them, as `advisories` does for a changed lockfile. Budget: under 300 ms.
// Run after `npx tsc -p tsconfig.build.json`: node bench/advisories.mjs
import { exitWithUsageIfAsked } from './measure.mjs';

exitWithUsageIfAsked(import.meta.url);
// After the usage check: `--help` needs no build.
const { diffLockedPackages } = await import('../dist/validators/advisories/dependency-diff.js');
const { parseNpmLock } = await import('../dist/validators/advisories/lockfiles/npm.js');

const PACKAGES = 5000;
const BUDGET_MS = 300;

function lockfile(seed) {
  const packages = { '': { name: 'bench-app', version: '1.0.0' } };
  for (let index = 0; index < PACKAGES; index++) {
    const scoped = index % 7 === 0;
    const name = scoped ? `@scope${index % 13}/pkg-${index}` : `pkg-${index}`;
    // Every 20th package moves to a new patch version in the "after" lock.
    const patch = index % 20 === 0 ? seed : 0;
    const path = index % 11 === 0 ? `node_modules/parent-${index % 50}/node_modules/${name}` : `node_modules/${name}`;
    packages[path] = {
      version: `${(index % 9) + 1}.${index % 17}.${patch}`,
      resolved: `https://registry.npmjs.org/${name}/-/${name.split('/').pop()}-1.0.0.tgz`,
      integrity: `sha512-${Buffer.from(name).toString('base64')}`,
      license: 'MIT',
      dependencies: { [`pkg-${(index + 1) % PACKAGES}`]: '^1.0.0' },
    };
  }
  return JSON.stringify({ name: 'bench-app', version: '1.0.0', lockfileVersion: 3, requires: true, packages }, null, 2);
}

const before = lockfile(0);
const after = lockfile(1);
const runs = [];
let changed = 0;
for (let run = 0; run < 7; run++) {
  const started = performance.now();
  const diff = diffLockedPackages('package-lock.json', parseNpmLock(before), parseNpmLock(after), { all: false });
  runs.push(performance.now() - started);
  changed = diff.length;
}
runs.sort((a, b) => a - b);
const median = runs[Math.floor(runs.length / 2)];
console.log(
  `advisories: parse 2 × ${PACKAGES}-package package-lock.json (${(after.length / 1e6).toFixed(1)} MB each) + diff: ` +
    `median ${median.toFixed(1)} ms, first ${runs.at(-1).toFixed(1)} ms (budget ${BUDGET_MS} ms, ${(median / BUDGET_MS).toFixed(2)}× of it); ` +
    `${changed} changed pairs found`,
);
if (median > BUDGET_MS) console.log('advisories: OVER BUDGET');
