#!/usr/bin/env node
// `npm run bench`: the benches behind the speed table first, then every other bench, one after the other (they compete
// for the same two cores otherwise), ending with one summary table: each measure, its anchor, the figure, the target,
// met or not, and the load average before and after the bench that measured it (bench/table.mjs). Each bench prints its
// figures as ratios against an anchor measured in the same run, and records them for the table (BENCH_RESULTS, see
// measure.mjs). A bench fails (and so does this) only when what it measured is not what it claims: a corpus that holds
// something other than source, a run that did the wrong work. A target not met is a figure, not a failure.
//
//   npm run bench                          every bench, then the table (its header says how long the run took)
//   npm run bench -- --table               only the table's benches
//   npm run bench -- --quick               the table's benches on small settings (a 20 MB slice, one run each):
//                                          a check of the plumbing, not figures to quote
//   npm run bench -- --load 8              the table's benches twice: quiet, then beside 8 processes that each burn
//                                          a core; the table sets each row's quiet figure beside its loaded one
//   npm run bench -- startup scale         only the named benches (a bench of the table with the table's settings;
//                                          flags after the names go to each), and their rows
//
// `scan --history` is timed on rails v7.2.0..v8.0.0 when a clone is found (--rails DIR, BENCH_RAILS, or
// bench/.cache/rails: `git clone https://github.com/rails/rails bench/.cache/rails`; a bare clone or mirror does too),
// else on the generated history, and the row says so.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadNow, settleLoad, startBurners } from './load.mjs';
import { clearMachineStartupCost } from './measure.mjs';
import { readNpmTestRecords } from './npm-test-record.mjs';
import { renderLoadTable, renderTable } from './table.mjs';

const here = dirname(fileURLToPath(import.meta.url));
// Every bench runs as on a user's machine: no certificate bundle parsed at each node start.
const certificatesNote = clearMachineStartupCost();
const root = resolve(here, '..');
const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(`usage: npm run bench [-- [BENCH…] [--table] [--quick] [--load N] [--rails DIR] [flags for the benches]]
  every bench, then the speed table; --table: only the table's benches; --quick: small settings (plumbing, not figures);
  --load N: the table's benches quiet, then beside N processes that each burn a core; --rails DIR: a rails clone
  example: npm run bench -- --load 8   (docs/benchmarks.md)`);
  process.exit(0);
}
if (certificatesNote) console.log(certificatesNote);
const flagValue = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const quick = args.includes('--quick');
const loadFlag = args.includes('--load') ? String(flagValue('--load')) : undefined;
const burners = loadFlag === undefined ? 0 : Number(loadFlag);
if (loadFlag !== undefined && !(Number.isInteger(burners) && burners >= 1 && burners <= 64)) {
  console.error(
    `bench: --load expects a count of processes from 1 to 64, e.g. --load 8; got ${JSON.stringify(loadFlag)}`,
  );
  process.exit(2);
}
const valueFlags = new Set(['--load', '--rails']);
// Names come first (`startup scale --runs 3`); what follows them, less this script's own flags, goes to each bench.
const firstFlag = args.findIndex((arg) => arg.startsWith('-'));
const named = firstFlag === -1 ? args : args.slice(0, firstFlag);
const passThrough = args
  .slice(named.length)
  .filter(
    (arg, index, rest) => !['--table', '--quick', ...valueFlags].includes(arg) && !valueFlags.has(rest[index - 1]),
  );

/** Modules the benches share, not benches. */
const LIBRARIES = new Set([
  'run-all.mjs',
  'measure.mjs',
  'load.mjs',
  'table.mjs',
  'npm-test-record.mjs',
  'secretlint13.mjs',
  'history-corpus.mjs',
  'rusage.mjs',
]);
/** Benches that time a corpus the user supplies: run when named with it (see their headers). */
const NEEDS_INPUT = new Set(['corpus-findings.mjs', 'recall-public.mjs']);

/**
 * A rails work tree with both tags of the history row, or null. A bare clone (a mirror) gets a work tree of its own
 * beside the cache, sharing its objects (`git clone --shared --no-checkout`, once): tollgate scans from a work tree.
 */
function findRails() {
  for (const candidate of [flagValue('--rails'), process.env.BENCH_RAILS, join(root, 'bench/.cache/rails')]) {
    if (!candidate || !existsSync(candidate)) continue;
    const git = (dir, ...gitArgs) => spawnSync('git', gitArgs, { cwd: dir, encoding: 'utf8' });
    const tagged = (dir) =>
      ['v7.2.0', 'v8.0.0'].every((tag) => git(dir, 'rev-parse', '--verify', '--quiet', `${tag}^{commit}`).status === 0);
    if (!tagged(candidate)) {
      console.log(`bench: ${candidate} has no v7.2.0 and v8.0.0 tags; the history row uses the generated history`);
      continue;
    }
    if (git(candidate, 'rev-parse', '--is-bare-repository').stdout.trim() !== 'true') return resolve(candidate);
    const worktree = join(root, 'bench/.cache/rails-worktree');
    if (!existsSync(join(worktree, '.git')))
      spawnSync('git', ['clone', '-q', '--shared', '--no-checkout', resolve(candidate), worktree], {
        stdio: 'inherit',
      });
    if (tagged(worktree)) return worktree;
    console.log(`bench: could not clone ${candidate} into ${worktree}; the history row uses the generated history`);
  }
  return null;
}

/** The benches behind the table, with the settings of a full or a --quick run. */
function tableSteps(rails) {
  const text = join(root, 'bench/.cache/text');
  const slice = join(root, 'bench/.cache/slice-20mb');
  return [
    { script: 'secrets.mjs', args: quick ? ['--quick', '--runs', '1'] : ['--runs', '3', '--no-gitleaks'] },
    { script: 'scale.mjs', args: ['threads', 'dense', '--runs', quick ? '1' : '3'] },
    { script: 'startup.mjs', args: ['--runs', quick ? '3' : '15'] },
    { script: 'change-set.mjs', args: ['--only', '20k', '--runs', quick ? '1' : '7'] },
    {
      script: 'history.mjs',
      args: [],
      env: {
        ...(rails ? { BENCH_REPO: rails, BENCH_RANGE: 'v7.2.0..v8.0.0' } : { BENCH_CORPUS: 'merges' }),
        BENCH_ROUNDS: quick ? '1' : '5',
      },
    },
    // After secrets.mjs, which builds the npm text corpus (and its slice) into bench/.cache.
    {
      script: 'rule-cost.mjs',
      args: quick
        ? [...(existsSync(slice) ? ['--corpus', slice] : []), '--mb', '8', '--rounds', '1']
        : [...(existsSync(text) ? ['--corpus', text] : []), '--mb', '64', '--rounds', '3'],
    },
  ];
}

/** Every other bench, as it runs alone; the table's benches again only for what the table does not show. */
function otherSteps() {
  const scripts = readdirSync(here)
    .filter((name) => name.endsWith('.mjs') && !LIBRARIES.has(name) && !NEEDS_INPUT.has(name))
    .sort();
  const rest = {
    'scale.mjs': ['files', 'findings', 'run', 'startup'],
    'change-set.mjs': ['--only', '100k'],
  };
  const table = new Set(['secrets.mjs', 'startup.mjs', 'history.mjs', 'rule-cost.mjs']);
  return scripts.filter((name) => !table.has(name)).map((script) => ({ script, args: rest[script] ?? [] }));
}

let running = null;
/** One bench as its own process, its output shown as it comes; its records (BENCH_RESULTS) with the load around it. */
async function runStep(step, resultsDir, index) {
  const results = join(resultsDir, `${index}.jsonl`);
  const label = [step.script, ...step.args].join(' ');
  console.log(
    `\n== ${label}${
      step.env
        ? ` (${Object.entries(step.env)
            .map(([k, v]) => `${k}=${v}`)
            .join(' ')})`
        : ''
    }`,
  );
  const before = loadNow();
  const started = performance.now();
  const child = spawn(process.execPath, [join(here, step.script), ...step.args], {
    stdio: 'inherit',
    // A BENCH_* setting of the caller's own (BENCH_ROUNDS, BENCH_REPO) wins over the table's.
    env: { ...step.env, ...process.env, BENCH_RESULTS: results },
  });
  running = child;
  const status = await new Promise((done) => child.on('close', (code, signal) => done(code ?? signal)));
  running = null;
  const after = loadNow();
  const records = existsSync(results)
    ? readFileSync(results, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => ({ ...JSON.parse(line), load: [before, after] }))
    : [];
  console.log(`-- ${label}: ${((performance.now() - started) / 1000).toFixed(0)} s, load ${before} → ${after}`);
  return { label, ok: status === 0, status, records };
}

async function runPass(steps, resultsDir) {
  const records = [];
  const failed = [];
  for (const [index, step] of steps.entries()) {
    const outcome = await runStep(step, resultsDir, index);
    records.push(...outcome.records);
    if (!outcome.ok) {
      failed.push(outcome.label);
      console.log(`${outcome.label} exited ${outcome.status}`);
    }
  }
  return { records, failed };
}

// Interrupted, this process ends the bench running now; the burners go with it too (see load.mjs).
for (const [signal, number] of [
  ['SIGINT', 2],
  ['SIGTERM', 15],
])
  process.on(signal, () => process.exit(128 + number));
process.on('exit', () => running?.kill('SIGTERM'));

const resultsDir = mkdtempSync(join(tmpdir(), 'tollgate-bench-results-'));
process.on('exit', () => rmSync(resultsDir, { recursive: true, force: true }));
const started = performance.now();
const rails = named.length === 0 || named.some((name) => 'history.mjs'.startsWith(name)) ? findRails() : null;
const npmTest = readNpmTestRecords(root);
const npmTestHint = npmTest.hint;
const steps =
  named.length > 0
    ? readdirSync(here)
        .filter((name) => name.endsWith('.mjs') && !LIBRARIES.has(name))
        .filter((name) => named.some((wanted) => name.startsWith(wanted)))
        .sort()
        .map((script) => {
          // A bench of the table runs with the table's settings, then the flags given.
          const step = tableSteps(rails).find((candidate) => candidate.script === script);
          // The flags given come first: every bench reads a flag's first occurrence, so they win.
          return step ? { ...step, args: [...passThrough, ...step.args] } : { script, args: passThrough };
        })
    : [...tableSteps(rails), ...(args.includes('--table') || quick || burners > 0 ? [] : otherSteps())];
const unknown = named.filter((name) => !steps.some((step) => step.script.startsWith(name)));
if (unknown.length > 0) {
  console.error(`bench: no bench named ${unknown.join(', ')} in bench/ (e.g. npm run bench -- startup)`);
  process.exit(2);
}
let failed;
let table;
if (burners > 0) {
  console.log(`\nquiet pass (load ${loadNow()})`);
  const quietPass = await runPass(steps, resultsDir);
  console.log(`\nloaded pass: starting ${burners} processes that each burn a core`);
  const burning = startBurners(burners);
  await settleLoad(burners);
  const loadedPass = await runPass(steps, mkdtempSync(join(resultsDir, 'loaded-')));
  burning.stop();
  failed = [...quietPass.failed, ...loadedPass.failed.map((label) => `${label} (load ${burners})`)];
  table = renderLoadTable(
    [...quietPass.records, ...npmTest.records],
    [...loadedPass.records, ...npmTest.records],
    burners,
    { npmTestHint, onlyMeasured: named.length > 0 },
  );
} else {
  const pass = await runPass(steps, resultsDir);
  failed = pass.failed;
  table = renderTable([...pass.records, ...npmTest.records], { npmTestHint, onlyMeasured: named.length > 0 });
}

const minutes = (performance.now() - started) / 60_000;
console.log(
  `\n== speed table${quick ? ' (--quick: small settings, not figures to quote)' : ''}${burners > 0 ? `, quiet and beside ${burners} burners` : ''}; ` +
    `\`npm run bench${args.length > 0 ? ` -- ${args.join(' ')}` : ''}\`, ${minutes.toFixed(1)} minutes, ` +
    `${new Date().toISOString().slice(0, 16)}Z, Node ${process.version}\n`,
);
console.log(table.join('\n'));
// Loud at the end too: a failure scrolled past hundreds of lines ago (a corpus that is not source, a wrong count of
// changed files) must not read as a finished bench.
if (failed.length > 0) console.error(`\nbench FAILED: ${failed.join(', ')} (see its error above)`);
process.exit(failed.length > 0 ? 1 : 0);
