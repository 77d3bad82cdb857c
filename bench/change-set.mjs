// Whole-process change set: `tollgate run` with every validator off, as a whole process through
// bin/tollgate.cjs, against `sh -c 'git status --porcelain && git diff HEAD --stat'` on the same repository, pair by
// pair (git, then tollgate, in turn, so a machine whose speed drifts moves both), in wall time and in CPU time. Two generated repositories: 100,000
// files with 5,000 changed and 20,000 files with 2,000 changed (modified, staged, deleted and untracked). Target: at most
// 1.3x for the whole process. A second row times a first run of the checks and the secret scan (see measureFirstRun;
// target: at most 3x; up to three more runs, outside the pairs, count the git processes a first run starts and their
// CPU through a shim on PATH: git's share against the anchor's CPU, and the rest's). Prints the load average before and
// after: on a shared machine compare figures taken at a similar load.
//
//   npm run build && node bench/change-set.mjs [--json] [--runs N] [--only 20k|100k] [--against OTHER/bin/tollgate.cjs]
//                                              [--global-lfs] [--fresh]
//
// --against also times another build of tollgate (an older checkout) in the same pairs, for a before/after figure.
// --fresh gives every changed file that is on disk new content before each first run (outside the timing; in a
// repository of its own, `repo-<size>-fresh`), so the run's `git add` writes all their blobs, as a developer's first
// run on a change does. Without it only the warm-up writes them: the timed runs find every blob already stored.
// --global-lfs runs both sides with Git LFS's filter in the global config (see below).
//
// It is a report: it prints the figures and exits 0 either way. The repositories are generated once under os.tmpdir()
// and reused while GENERATOR_VERSION stays the same; every process runs with a private HOME and git config.
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  assertSourceCorpus,
  CHANGE_SET_GENERATOR_VERSION,
  changeSetBenchDir,
  exitWithUsageIfAsked,
  median,
  printResult,
  privateGitEnv,
} from './measure.mjs';

exitWithUsageIfAsked(import.meta.url);

const GENERATOR_VERSION = CHANGE_SET_GENERATOR_VERSION;
const FILES_PER_DIR = 100;
const TARGET = 1.3;
const SIZES = [
  { name: '100k', files: 100_000, changes: { unstaged: 3_250, staged: 500, deleted: 250, untracked: 1_000 } },
  { name: '20k', files: 20_000, changes: { unstaged: 1_300, staged: 200, deleted: 100, untracked: 400 } },
];

const bin = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'tollgate.cjs');
const args = process.argv.slice(2);
const flag = (name) => (args.indexOf(name) === -1 ? null : args[args.indexOf(name) + 1]);
const runs = Number(flag('--runs') ?? 7);
const against = flag('--against');
const only = flag('--only');
const fresh = args.includes('--fresh');

const dir = changeSetBenchDir;
const home = join(dir, 'home');
mkdirSync(home, { recursive: true });
writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = Bench\n\temail = bench@tollgate.invalid\n');
const env = privateGitEnv(home);
// --global-lfs: Git LFS set up in the user's global config (`git lfs install`), as on many developers' machines. The
// generated repositories name no filter in any attributes, so git's own work is the same; what tollgate does to rule
// out clean filters is what this measures. (Through the environment: the bench's home is shared by concurrent runs.)
if (args.includes('--global-lfs')) {
  Object.assign(env, {
    GIT_CONFIG_COUNT: '3',
    GIT_CONFIG_KEY_0: 'filter.lfs.clean',
    GIT_CONFIG_VALUE_0: 'git-lfs clean -- %f',
    GIT_CONFIG_KEY_1: 'filter.lfs.process',
    GIT_CONFIG_VALUE_1: 'git-lfs filter-process',
    GIT_CONFIG_KEY_2: 'filter.lfs.required',
    GIT_CONFIG_VALUE_2: 'true',
  });
}
// A code cache of this bench's own: a cache holds what its first run compiled, so one filled by some small repository's
// run (or evicted by other builds sharing the home) makes a 100k run compile the rest each time, which moved the
// figures by 0.1-0.2x. Each binary's warm-up below fills it from the same run, for both sides of --against.
const codeCache = mkdtempSync(join(tmpdir(), 'tollgate-bench-change-set-cache-'));
process.on('exit', () => rmSync(codeCache, { recursive: true, force: true }));
// Every validator off: what is left is start-up, the policy reading, the change set and the report.
const runEnv = {
  ...env,
  TOLLGATE_CACHE_DIR: codeCache,
  ...Object.fromEntries(
    ['CHECKS', 'SECRETS', 'ADVISORIES', 'STATIC_ANALYSIS', 'CODE_REVIEW'].map((name) => [`TOLLGATE_USE_${name}`, '0']),
  ),
};

function fileName(i) {
  return `src/d${String(Math.floor(i / FILES_PER_DIR)).padStart(4, '0')}/file${String(i).padStart(6, '0')}.ts`;
}

function fileContent(i, variant = '') {
  const lines = [];
  for (let line = 0; line < 40; line += 1)
    lines.push(`export const value${i}_${line} = ${(i * 31 + line) % 997}; // ${variant}`);
  return `${lines.join('\n')}\n`;
}

function git(repo, ...gitArgs) {
  const result = spawnSync('git', gitArgs, { cwd: repo, env, encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`git ${gitArgs[0]} failed: ${result.stderr}`);
  return result.stdout;
}

/** A committed tree of `files` files, then changes spread over it: every tenth file in turn unstaged, staged, deleted. */
function generate(repo, { files, changes }) {
  rmSync(repo, { recursive: true, force: true });
  mkdirSync(repo, { recursive: true });
  git(repo, 'init', '--quiet', '-b', 'main');
  for (let i = 0; i < files; i += 1) {
    if (i % FILES_PER_DIR === 0) mkdirSync(join(repo, fileName(i), '..'), { recursive: true });
    writeFileSync(join(repo, fileName(i)), fileContent(i));
  }
  writeFileSync(join(repo, 'tollgate.config.yaml'), 'checks:\n  - name: ok\n    run: "true"\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '--quiet', '-m', 'generated');
  let next = 0;
  const pick = () => (next++ * 10 + 3) % files;
  const modify = (i) => {
    const lines = fileContent(i).split('\n');
    lines[5] = `export const changed${i} = true;`;
    lines.splice(20, 2, 'export const inserted = 1;', 'export const inserted2 = 2;', 'export const inserted3 = 3;');
    writeFileSync(join(repo, fileName(i)), lines.join('\n'));
  };
  for (let k = 0; k < changes.unstaged; k += 1) modify(pick());
  const staged = [];
  for (let k = 0; k < changes.staged; k += 1) {
    const i = pick();
    modify(i);
    staged.push(fileName(i));
  }
  spawnSync('git', ['add', '--pathspec-from-file=-'], { cwd: repo, env, input: staged.join('\n') });
  for (let k = 0; k < changes.deleted; k += 1) unlinkSync(join(repo, fileName(pick())));
  for (let k = 0; k < changes.untracked; k += 1) {
    const i = files + k;
    mkdirSync(join(repo, fileName(i), '..'), { recursive: true });
    writeFileSync(join(repo, fileName(i)), fileContent(i, 'new'));
  }
}

function prepare(size) {
  const repo = join(dir, `repo-${size.name}${fresh ? '-fresh' : ''}`);
  const stamp = join(dir, `ready-${size.name}${fresh ? '-fresh' : ''}`);
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== GENERATOR_VERSION) {
    const started = performance.now();
    generate(repo, size);
    writeFileSync(stamp, GENERATOR_VERSION);
    console.error(`generated ${repo} in ${Math.round(performance.now() - started)} ms`);
  }
  // Reused from an earlier run: whatever got into the folder since would be measured too.
  assertSourceCorpus(repo, { repository: true });
  return repo;
}

// CPU time (user + system, children included) through GNU time when it is installed: on a loaded machine wall time
// is mostly waiting for a core, and the CPU ratio says more about the work each side does.
const gnuTime = ['/usr/bin/time', '/bin/time'].find((path) => existsSync(path)) ?? null;
const cpuFile = join(dir, 'cpu.txt');

function time(command, commandArgs, cwd, commandEnv) {
  const argv = gnuTime ? ['-f', '%U %S', '-o', cpuFile, command, ...commandArgs] : commandArgs;
  const started = process.hrtime.bigint();
  const result = spawnSync(gnuTime ?? command, argv, {
    cwd,
    env: commandEnv,
    encoding: 'utf8',
    maxBuffer: 1024 * 1024 * 1024,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0)
    throw new Error(`${command} ${commandArgs.join(' ')}: exit ${result.status}: ${result.stderr}`);
  const cpuMs = gnuTime
    ? readFileSync(cpuFile, 'utf8')
        .trim()
        .split('\n')
        .pop()
        .split(' ')
        .reduce((sum, seconds) => sum + Number(seconds) * 1000, 0)
    : Number.NaN;
  return { ms, cpuMs, stdout: result.stdout };
}

const gitLook = ['-c', 'git status --porcelain && git diff HEAD --stat'];
const expectedChanged = (size) => Object.values(size.changes).reduce((sum, count) => sum + count, 0);

/**
 * `runs` pairs: git, then `runOne(bin)`, with ratios of each pair. With --against, the two builds take turns right after
 * git (git status rewrites the index, and the run that follows it measured a few percent slower), so neither side
 * always pays for it.
 */
function pairedWithGit(repo, runOne) {
  const out = { gits: [], ours: [], ratios: [], cpuRatios: [], otherRatios: [], otherCpuRatios: [] };
  for (let i = 0; i < runs; i += 1) {
    const git = time('sh', gitLook, repo, env);
    const otherFirst = against && i % 2 === 1 ? runOne(against) : null;
    const run = runOne(bin);
    out.gits.push(git.ms);
    out.ours.push(run.ms);
    out.ratios.push(run.ms / git.ms);
    out.cpuRatios.push(run.cpuMs / git.cpuMs);
    if (against) {
      const other = otherFirst ?? runOne(against);
      out.otherRatios.push(other.ms / git.ms);
      out.otherCpuRatios.push(other.cpuMs / git.cpuMs);
    }
  }
  return out;
}

function measure(size) {
  const repo = prepare(size);
  const tollgate = (binary) => time(process.execPath, [binary, 'run', '--format', 'json'], repo, runEnv);
  const checked = (binary) => {
    const { ms, cpuMs, stdout } = tollgate(binary);
    const count = JSON.parse(stdout).files?.length;
    if (count !== expectedChanged(size))
      throw new Error(`${binary}: expected ${expectedChanged(size)} changed files, got ${count}`);
    return { ms, cpuMs };
  };
  // One warm-up each: page cache, git's index refresh, V8's code cache.
  time('sh', gitLook, repo, env);
  checked(bin);
  if (against) checked(against);
  const { gits, ours, ratios, cpuRatios, otherRatios, otherCpuRatios } = pairedWithGit(repo, checked);
  const first = measureFirstRun(repo, size);
  const ratio = median(ratios);
  const cpuRatio = median(cpuRatios);
  const otherText = against
    ? `; --against: ${median(otherRatios).toFixed(2)}x wall, ${median(otherCpuRatios).toFixed(2)}x CPU`
    : '';
  console.log(
    `${size.files / 1000}k files / ${expectedChanged(size) / 1000}k changed: tollgate run (validators off) ${median(ours).toFixed(0)} ms, ${ratio.toFixed(2)}x \`git status --porcelain && git diff HEAD --stat\` (${median(gits).toFixed(0)} ms; median of ${runs} pairs; target <= ${TARGET}x ${ratio <= TARGET ? 'met' : 'NOT met'}); CPU ${cpuRatio.toFixed(2)}x${otherText}`,
  );
  return {
    files: size.files,
    changed: expectedChanged(size),
    ms: median(ours),
    gitMs: median(gits),
    ratio,
    cpuRatio,
    met: ratio <= TARGET,
    ...(against ? { againstRatio: median(otherRatios), againstCpuRatio: median(otherCpuRatios) } : {}),
    firstRun: first,
  };
}

// A first run: `tollgate run --only checks,secrets` on a change set no earlier run has seen (its .tollgate/ state
// removed before each run, outside the timing), so the secret scan reads and scans every changed file, the check runs
// and the tree is checked again after them. Same pairing against git as above. Target: at most 3x.
const FIRST_RUN_TARGET = 3;
// A code cache of its own: a code cache file is one per command (`run`), written once by the first run that finds none,
// so sharing the validators-off runs' cache left every timed first run compiling the secret scan, the check and the
// report lazily (measured in docs/benchmarks.md, "The first run's code cache in this bench", session 23).
const firstRunCache = mkdtempSync(join(tmpdir(), 'tollgate-bench-change-set-first-cache-'));
process.on('exit', () => rmSync(firstRunCache, { recursive: true, force: true }));
const firstRunEnv = {
  ...env,
  TOLLGATE_CACHE_DIR: firstRunCache,
  ...Object.fromEntries(['ADVISORIES', 'STATIC_ANALYSIS', 'CODE_REVIEW'].map((name) => [`TOLLGATE_USE_${name}`, '0'])),
};

/** The changed files on disk (modified, staged, untracked), listed once per repository for --fresh. */
const liveChanged = new Map();
let freshRound = 0;

/** --fresh: one more line in every changed file on disk, so that no blob of the next run is stored yet. */
function freshen(repo) {
  if (!liveChanged.has(repo)) {
    const records = git(repo, 'status', '--porcelain=v1', '-z', '--untracked-files=all').split('\0');
    liveChanged.set(
      repo,
      records
        .filter((record) => record.length > 3 && !record.slice(0, 2).includes('D'))
        .map((record) => record.slice(3)),
    );
  }
  freshRound += 1;
  for (const path of liveChanged.get(repo)) appendFileSync(join(repo, path), `// fresh ${freshRound}\n`);
}

function firstRunOf(binary, repo, size, runEnv = firstRunEnv) {
  rmSync(join(repo, '.tollgate'), { recursive: true, force: true });
  if (fresh) freshen(repo);
  const run = time(process.execPath, [binary, 'run', '--only', 'checks,secrets', '--format', 'json'], repo, runEnv);
  const report = JSON.parse(run.stdout);
  const statuses = (report.tools ?? []).map((tool) => `${tool.name}:${tool.status}`).sort();
  // Anything but both validators passing (a skip, a result reused from an earlier run) is not what this row measures.
  if (statuses.join(' ') !== 'checks:passed secrets:passed' || report.files?.length !== expectedChanged(size))
    throw new Error(
      `${binary}: a first run should pass both validators on ${expectedChanged(size)} files, got ${statuses.join(' ')} on ${report.files?.length}`,
    );
  return run;
}

/**
 * Git's share of a first run, outside the timed pairs: every git the run starts goes through a shim that records its
 * CPU time, so the row can say how many git processes a first run costs and how much of its CPU is git's own work,
 * against the anchor's CPU just before it (median of up to three such runs). The shim's own start-up is not counted.
 */
function gitShare(binary, repo, size) {
  const realGit = spawnSync('sh', ['-c', 'command -v git'], { env, encoding: 'utf8' }).stdout.trim();
  if (!gnuTime || !realGit) return null;
  const shimDir = mkdtempSync(join(tmpdir(), 'tollgate-bench-git-shim-'));
  try {
    const log = join(shimDir, 'git-cpu.txt');
    const shim = join(shimDir, 'git');
    writeFileSync(shim, `#!/bin/sh\nexec ${gnuTime} -a -o '${log}' -f '%U %S' '${realGit}' "$@"\n`);
    chmodSync(shim, 0o755);
    const samples = [];
    for (let i = 0; i < Math.min(runs, 3); i += 1) {
      writeFileSync(log, '');
      const anchor = time('sh', gitLook, repo, env);
      const run = firstRunOf(binary, repo, size, { ...firstRunEnv, PATH: `${shimDir}:${env.PATH}` });
      // GNU time adds a "Command exited with non-zero status" line for a git that exits non-zero (`config
      // --get-regexp` when no key matches): only the figures count.
      const lines = readFileSync(log, 'utf8')
        .split('\n')
        .filter((line) => /^\d+(\.\d+)? \d+(\.\d+)?$/.test(line));
      const gitCpuMs = lines.reduce((sum, line) => sum + line.split(' ').reduce((a, b) => a + Number(b) * 1000, 0), 0);
      samples.push({ processes: lines.length, gitCpuMs, anchorCpuMs: anchor.cpuMs, runCpuMs: run.cpuMs });
    }
    return {
      processes: median(samples.map((sample) => sample.processes)),
      gitCpuMs: median(samples.map((sample) => sample.gitCpuMs)),
      gitCpuRatio: median(samples.map((sample) => sample.gitCpuMs / sample.anchorCpuMs)),
      restCpuRatio: median(samples.map((sample) => (sample.runCpuMs - sample.gitCpuMs) / sample.anchorCpuMs)),
    };
  } finally {
    rmSync(shimDir, { recursive: true, force: true });
  }
}

function measureFirstRun(repo, size) {
  const loadBefore = loadavg()[0];
  firstRunOf(bin, repo, size); // warm-up: this build's code cache for `run --only`
  if (against) firstRunOf(against, repo, size);
  const { ours, ratios, cpuRatios, otherRatios, otherCpuRatios } = pairedWithGit(repo, (binary) =>
    firstRunOf(binary, repo, size),
  );
  const share = gitShare(bin, repo, size);
  const againstShare = against ? gitShare(against, repo, size) : null;
  const loadAfter = loadavg()[0];
  const ratio = median(ratios);
  const cpuRatio = median(cpuRatios);
  const met = ratio <= FIRST_RUN_TARGET && cpuRatio <= FIRST_RUN_TARGET;
  const otherText = against
    ? `; --against: ${median(otherRatios).toFixed(2)}x wall, ${median(otherCpuRatios).toFixed(2)}x CPU`
    : '';
  const shareText = (of) =>
    of
      ? `${of.processes} git processes, git's CPU ${of.gitCpuRatio.toFixed(2)}x the anchor's, the rest ${of.restCpuRatio.toFixed(2)}x`
      : 'git share not measured (needs GNU time)';
  console.log(
    `${size.files / 1000}k files / ${expectedChanged(size) / 1000}k changed, first run (\`tollgate run --only checks,secrets\`, no earlier state): ${median(ours).toFixed(0)} ms, ${ratio.toFixed(2)}x wall, ${cpuRatio.toFixed(2)}x CPU of \`git status --porcelain && git diff HEAD --stat\` (median of ${runs} pairs; target <= ${FIRST_RUN_TARGET}x ${met ? 'met' : 'NOT met'})${fresh ? ' with new content in every changed file before each run (--fresh)' : ''}${otherText}; git's share (median of ${Math.min(runs, 3)} more runs): ${shareText(share)}${against ? ` (--against: ${shareText(againstShare)})` : ''}; load ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after`,
  );
  return {
    ms: median(ours),
    ratio,
    cpuRatio,
    met,
    load: [loadBefore, loadAfter],
    ...(share ? { git: share } : {}),
    ...(againstShare ? { againstGit: againstShare } : {}),
    ...(against ? { againstRatio: median(otherRatios), againstCpuRatio: median(otherCpuRatios) } : {}),
  };
}

const loadBefore = loadavg()[0];
const values = { runs, target: TARGET, ...(fresh ? { fresh: true } : {}) };
for (const size of SIZES) if (only === null || only === size.name) values[size.name] = measure(size);
const loadAfter = loadavg()[0];
values.load = [loadBefore, loadAfter];
printResult({
  name: 'change-set',
  line: `load average (1 min) ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after, on ${process.platform} with Node ${process.version}${args.includes('--global-lfs') ? ', Git LFS in the global config' : ''}`,
  values,
});
