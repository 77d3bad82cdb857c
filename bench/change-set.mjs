// Speed target of the change set (GitHub issue "Foundation"): on a generated repository of 20,000 files with 2,000
// changed (modified, staged, deleted and untracked), building the change set must take at most 1.3x the time of
// `git status --porcelain` + `git diff` on the same repository, measured in the same run.
//
//   npm run build && node bench/change-set.mjs [--json] [--runs N]
//
// It is a report: it prints the figure and exits 0 either way. The repository is generated once under os.tmpdir() and
// reused while GENERATOR_VERSION stays the same. The change set runs several git processes side by side, so on a busy
// machine (see `loadAverage` in the --json line) its ratio rises: compare figures taken at a similar load.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createChangeSet } from '../dist/core/change-set/index.js';

const GENERATOR_VERSION = 'v1';
const TOTAL_FILES = 20_000;
const FILES_PER_DIR = 100;
const CHANGES = { unstaged: 1_300, staged: 200, deleted: 100, untracked: 400 }; // 2,000 in all
const TARGET = 1.3;

const run = promisify(execFile);
const args = process.argv.slice(2);
const json = args.includes('--json');
const runsFlag = args.indexOf('--runs');
const runs = runsFlag === -1 ? 5 : Number(args[runsFlag + 1]);

const dir = join(tmpdir(), `tollgate-bench-change-set-${GENERATOR_VERSION}`);
const repo = join(dir, 'repo');
// A private git config for everything this process runs (the change set included): the result must not depend on the
// developer's settings, and the bench must not read or write them.
process.env.GIT_CONFIG_NOSYSTEM = '1';
process.env.GIT_CONFIG_GLOBAL = join(dir, 'gitconfig');
for (const key of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE']) delete process.env[key];

function git(...gitArgs) {
  return run('git', gitArgs, { cwd: repo, maxBuffer: 1024 * 1024 * 1024 });
}

function fileName(i) {
  return `src/d${String(Math.floor(i / FILES_PER_DIR)).padStart(3, '0')}/file${String(i).padStart(5, '0')}.ts`;
}

function fileContent(i, variant = '') {
  const lines = [];
  for (let line = 0; line < 40; line += 1)
    lines.push(`export const value${i}_${line} = ${(i * 31 + line) % 997}; // ${variant}`);
  return `${lines.join('\n')}\n`;
}

async function generate() {
  await rm(dir, { recursive: true, force: true });
  await mkdir(repo, { recursive: true });
  await writeFile(process.env.GIT_CONFIG_GLOBAL, '[user]\n\tname = Bench\n\temail = bench@tollgate.invalid\n');
  await git('init', '--quiet', '-b', 'main');
  for (let i = 0; i < TOTAL_FILES; i += 1) {
    if (i % FILES_PER_DIR === 0) await mkdir(join(repo, fileName(i), '..'), { recursive: true });
    await writeFile(join(repo, fileName(i)), fileContent(i));
  }
  await git('add', '-A');
  await git('commit', '--quiet', '-m', 'generated');
  // Spread the changes over the tree: every tenth file, in turn unstaged, staged, deleted.
  let next = 0;
  const pick = () => {
    const i = (next * 10 + 3) % TOTAL_FILES;
    next += 1;
    return i;
  };
  const modify = (i) => {
    const lines = fileContent(i).split('\n');
    lines[5] = `export const changed${i} = true;`;
    lines.splice(20, 2, 'export const inserted = 1;', 'export const inserted2 = 2;', 'export const inserted3 = 3;');
    return writeFile(join(repo, fileName(i)), lines.join('\n'));
  };
  for (let k = 0; k < CHANGES.unstaged; k += 1) await modify(pick());
  const staged = [];
  for (let k = 0; k < CHANGES.staged; k += 1) {
    const i = pick();
    await modify(i);
    staged.push(fileName(i));
  }
  await git('add', '--', ...staged);
  for (let k = 0; k < CHANGES.deleted; k += 1) await unlink(join(repo, fileName(pick())));
  for (let k = 0; k < CHANGES.untracked; k += 1) {
    const i = TOTAL_FILES + k;
    await mkdir(join(repo, fileName(i), '..'), { recursive: true });
    await writeFile(join(repo, fileName(i)), fileContent(i, 'new'));
  }
  await writeFile(join(dir, 'ready'), GENERATOR_VERSION);
}

async function timed(fn) {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const ready = existsSync(join(dir, 'ready')) && (await readFile(join(dir, 'ready'), 'utf8')) === GENERATOR_VERSION;
if (!ready) {
  const started = performance.now();
  await generate();
  if (!json) console.error(`generated ${repo} in ${Math.round(performance.now() - started)} ms`);
}

const gitSide = async () => {
  await git('status', '--porcelain');
  await git('diff');
};
const changeSetSide = async () => {
  const changeSet = await createChangeSet({ cwd: repo });
  if (changeSet.files.length !== 2_000) throw new Error(`expected 2000 changed files, got ${changeSet.files.length}`);
};

// One warm-up each (page cache, git's own index refresh), then alternate so both sides see the same machine load.
await gitSide();
await changeSetSide();
const gitTimes = [];
const changeSetTimes = [];
for (let i = 0; i < runs; i += 1) {
  gitTimes.push(await timed(gitSide));
  changeSetTimes.push(await timed(changeSetSide));
}
const changeSetMs = Math.round(median(changeSetTimes));
const gitMs = Math.round(median(gitTimes));
const ratio = changeSetMs / gitMs;
console.log(
  `change-set: ${changeSetMs} ms vs git status+diff ${gitMs} ms = ${ratio.toFixed(2)}x (target <= ${TARGET.toFixed(2)}x)`,
);
if (json) {
  console.log(
    JSON.stringify({
      bench: 'change-set',
      files: TOTAL_FILES,
      changed: 2_000,
      runs,
      changeSetMs,
      gitMs,
      ratio: Number(ratio.toFixed(3)),
      target: TARGET,
      met: ratio <= TARGET,
      loadAverage: Number(loadavg()[0].toFixed(2)),
      samples: { changeSet: changeSetTimes.map(Math.round), git: gitTimes.map(Math.round) },
    }),
  );
}
