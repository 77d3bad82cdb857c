#!/usr/bin/env node
// `npm test` beside N processes that each burn a core (bench/load.mjs), timed as a whole: the wall time, the exit code
// and the load average before and after. The figure is recorded in bench/.cache/npm-test.jsonl, where `npm run bench`
// finds it for its table (the `npm test` row: ≤ 5 minutes quiet, ≤ 10 minutes at load 8).
//
//   node scripts/test-under-load.mjs            npm test beside 8 burners
//   node scripts/test-under-load.mjs --load 0   npm test alone: the quiet figure (on a machine nothing else uses)
//   node scripts/test-under-load.mjs --load 8 -- FILE…   `npx vitest run FILE…` instead (a subset; not recorded)
//
// Exits with npm test's own exit code. Interrupted (Ctrl-C), it stops the burners and npm test with it.
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadNow, settleLoad, startBurners } from '../bench/load.mjs';
import { appendNpmTestRecord } from '../bench/npm-test-record.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dashes = process.argv.indexOf('--');
const args = dashes === -1 ? process.argv.slice(2) : process.argv.slice(2, dashes);
// After `--`: vitest's own arguments, for a subset of the files (its figure is not npm test's, so it is not recorded).
const vitestArgs = dashes === -1 ? null : process.argv.slice(dashes + 1);
if (args.includes('--help') || args.includes('-h')) {
  console.log(
    'usage: node scripts/test-under-load.mjs [--load N] [-- VITEST_ARGS…]\n' +
      '  runs `npm test` beside N processes that each burn a core (default 8; 0: alone) and prints its wall time;\n' +
      '  with -- and arguments, `npx vitest run ARGS…` instead (a subset of the files; not recorded)\n' +
      '  example: node scripts/test-under-load.mjs --load 8\n' +
      '  example: node scripts/test-under-load.mjs --load 8 -- src/core/process.test.ts src/secrets/scanner.test.ts',
  );
  process.exit(0);
}
const at = args.indexOf('--load');
const burners = at === -1 ? 8 : Number(args[at + 1]);
if (!Number.isInteger(burners) || burners < 0 || burners > 64) {
  console.error(
    `test-under-load: --load expects a count of processes from 0 to 64, e.g. --load 8; got ${args[at + 1]}`,
  );
  process.exit(2);
}

const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();
const burning = startBurners(burners);
if (burners > 0) {
  console.log(`starting ${burners} processes that each burn a core; waiting for the load average to show them…`);
  await settleLoad(burners);
}
const loadBefore = loadNow();
const what = vitestArgs ? `vitest run (${vitestArgs.length} argument(s))` : 'npm test';
console.log(`${what} at ${commit}, ${burners} burners, load ${loadBefore}`);
const started = performance.now();
const [command, commandArgs] = vitestArgs ? ['npx', ['vitest', 'run', ...vitestArgs]] : ['npm', ['test']];
const child = spawn(process.platform === 'win32' ? `${command}.cmd` : command, commandArgs, {
  cwd: root,
  stdio: 'inherit',
});
// Interrupted, this process exits through bench/load.mjs's handler: npm test goes with it.
process.on('exit', () => child.exitCode === null && child.kill('SIGTERM'));
const exitCode = await new Promise((done) => child.on('close', (code, signal) => done(code ?? (signal ? 1 : 0))));
const seconds = (performance.now() - started) / 1000;
const loadAfter = loadNow();
burning.stop();
if (vitestArgs) {
  console.log(
    `\`node scripts/test-under-load.mjs --load ${burners} -- …\` at ${commit}: ${what} ${seconds.toFixed(0)} s wall, ` +
      `exit ${exitCode}, ${burners} burners, load ${loadBefore} before, ${loadAfter} after`,
  );
  process.exit(exitCode);
}
appendNpmTestRecord(root, {
  date: new Date().toISOString(),
  commit,
  burners,
  seconds,
  exitCode,
  load: [loadBefore, loadAfter],
  node: process.version,
});
console.log(
  `\`node scripts/test-under-load.mjs --load ${burners}\` at ${commit}: npm test ${seconds.toFixed(0)} s wall, exit ${exitCode}, ` +
    `${burners} burners, load ${loadBefore} before, ${loadAfter} after (recorded in ${join('bench/.cache', 'npm-test.jsonl')})`,
);
process.exit(exitCode);
