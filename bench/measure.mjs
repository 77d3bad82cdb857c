import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  realpathSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// Shared by the bench scripts: medians and one output shape (a human line, and a JSON line with --json).
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function printResult({ name, line, values }) {
  console.log(line);
  if (process.argv.includes('--json')) console.log(JSON.stringify({ bench: name, ...values }));
  recordResult(name, values);
}

/**
 * Appends `{ bench: name, ...values }` as one JSON line to the file BENCH_RESULTS names, when it names one:
 * `npm run bench` (bench/run-all.mjs) sets it and builds its summary table from what every bench recorded.
 */
export function recordResult(name, values) {
  const file = process.env.BENCH_RESULTS;
  if (file) appendFileSync(file, `${JSON.stringify({ bench: name, ...values })}\n`);
}

/** Every file under `dir`, in name order, its `.git` folders left out: a corpus listed the same way by every bench. */
export function listCorpusFiles(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (entry.name === '.git') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) listCorpusFiles(path, out);
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

/**
 * A path that is git's own storage, not a project's source: a pack, its index or reverse index, a loose object, a
 * nested repository's folder. A corpus holding one measures how compressed bytes scan, not how source does.
 */
export function isGitStorage(path) {
  return /(^|\/)\.git(\/|$)|(^|\/)objects\/(pack\/|[0-9a-f]{2}\/[0-9a-f]{38,62}$)|\.(pack|idx|rev|bitmap)$/.test(path);
}

/**
 * What in a corpus folder is not source, at most five of them: git's storage (see isGitStorage) or a file with a NUL
 * byte in its first 8 KB. `repository`: the folder is a work tree whose top-level .git (the repository) and .tollgate
 * (tollgate's state) are not the corpus. `binary: false` lets binary files pass (a real project's images), refusing
 * only git's storage.
 */
export function corpusProblems(dir, { repository = false, binary = true } = {}) {
  const bad = [];
  const buffer = Buffer.alloc(8192);
  const walk = (folder, relative) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      // A work tree's own repository and tollgate's state folder are not the change being measured.
      if (repository && (path === '.git' || path === '.tollgate')) continue;
      if (isGitStorage(path)) bad.push(`${path} (git storage)`);
      else if (entry.isDirectory()) walk(join(folder, entry.name), path);
      else if (binary && entry.isFile()) {
        const fd = openSync(join(folder, entry.name), 'r');
        try {
          const read = readSync(fd, buffer, 0, buffer.length, 0);
          if (buffer.subarray(0, read).includes(0)) bad.push(`${path} (binary: a NUL byte)`);
        } finally {
          closeSync(fd);
        }
      }
      if (bad.length >= 5) return;
    }
  };
  walk(dir, '');
  return bad;
}

/** What paths any commit of `range` touches are git's own storage (at most five); throws when git log fails. */
export function historyProblems(repo, range, env = process.env) {
  const result = spawnSync('git', ['log', '--format=', '--name-only', '--no-renames', range], {
    cwd: repo,
    env,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  if (result.status !== 0) throw new Error(`git log ${range} in ${repo}: ${result.stderr.trim()}`);
  return [...new Set(result.stdout.split('\n').filter((path) => path !== '' && isGitStorage(path)))]
    .slice(0, 5)
    .map((path) => `${path} (git storage)`);
}

/**
 * Ends the bench loudly when a corpus folder holds anything that is not source (see corpusProblems): one line on
 * stderr naming the folder and what is wrong, exit 1, so `npm run bench` fails and says which bench.
 */
export function assertSourceCorpus(dir, options = {}) {
  refuseCorpus(`corpus ${dir}`, corpusProblems(dir, options));
}

/** The same for a history: no path any commit of `range` touches may be git's own storage. */
export function assertSourceHistory(repo, range, env = process.env) {
  refuseCorpus(`history ${repo} ${range}`, historyProblems(repo, range, env));
}

/** Ends the bench (one line on stderr, exit 1) when `problems` lists anything in the corpus `what` names. */
export function refuseCorpus(what, problems) {
  if (problems.length === 0) return;
  console.error(
    `bench: ${what} holds what is not source: ${problems.join(', ')}; rebuild it (remove it and run the bench again) or point the bench at source`,
  );
  process.exit(1);
}

/** Where the dropped certificate bundle is kept, so the benches' installs (started as children) still reach the registry. */
const KEPT_CA_CERTS = 'BENCH_KEPT_NODE_EXTRA_CA_CERTS';

/**
 * Drops NODE_EXTRA_CA_CERTS from this process's environment (and so from every child it starts). A machine that sets
 * it makes each node process parse that certificate bundle at start (about 50 ms of CPU here), which inflates the
 * `node -e 0` anchor and every start-up figure beside it; a user's machine usually has no such setting. Returns a
 * line saying so, or '' when nothing was set. The value is kept for `installEnv()`: a registry behind a proxy with
 * its own certificate needs it.
 */
export function clearMachineStartupCost() {
  if (!process.env.NODE_EXTRA_CA_CERTS) return '';
  process.env[KEPT_CA_CERTS] = process.env.NODE_EXTRA_CA_CERTS;
  delete process.env.NODE_EXTRA_CA_CERTS;
  return 'bench: NODE_EXTRA_CA_CERTS unset for every timed process (node would parse that bundle at each start)';
}

/** The environment for an `npm install` a bench needs (not timed): the certificate bundle put back if it was dropped. */
export function installEnv() {
  const kept = process.env[KEPT_CA_CERTS];
  return kept && !process.env.NODE_EXTRA_CA_CERTS ? { ...process.env, NODE_EXTRA_CA_CERTS: kept } : process.env;
}

/**
 * The generated repositories of `bench/change-set.mjs`, kept between runs in this folder while its generator's
 * version (the folder's suffix) stays the same; the other first-run benches reuse its 20k repository.
 */
export const CHANGE_SET_GENERATOR_VERSION = 'v2';
export const changeSetBenchDir = join(tmpdir(), `tollgate-bench-change-set-${CHANGE_SET_GENERATOR_VERSION}`);

/** The 20k-file repository `bench/change-set.mjs` generates (or `--repo`); exits 2, saying how to make it, when absent. */
export function generatedRepo20k(bench, repoFlag) {
  const repo = repoFlag ?? join(changeSetBenchDir, 'repo-20k');
  if (!existsSync(join(repo, '.git'))) {
    console.error(`${bench}: no repository at ${repo}; run \`node bench/change-set.mjs --only 20k --runs 1\` first`);
    process.exit(2);
  }
  return repo;
}

/**
 * The environment of a bench's git and tollgate: `home` as HOME with its own global config, no system config, no
 * other GIT_* variable and no TOLLGATE_ACTIVE, so that no user setting moves a figure.
 */
export function privateGitEnv(home) {
  const env = { ...process.env, HOME: home, GIT_CONFIG_GLOBAL: `${home}/.gitconfig`, GIT_CONFIG_NOSYSTEM: '1' };
  for (const key of Object.keys(env))
    if (key.startsWith('GIT_') && !['GIT_CONFIG_GLOBAL', 'GIT_CONFIG_NOSYSTEM'].includes(key)) delete env[key];
  delete env.TOLLGATE_ACTIVE;
  return env;
}

/**
 * `--help` (or `-h`) on a bench's own command line: prints the bench's header comment (what it measures, how to run it,
 * its flags and variables) and exits 0 before it builds or times anything. Only for the script node was started with:
 * a bench that another imports (thread-timeline.mjs from scale.mjs) stays quiet there.
 */
export function exitWithUsageIfAsked(moduleUrl, argv = process.argv) {
  const args = argv.slice(2);
  if (!args.includes('--help') && !args.includes('-h')) return;
  const file = fileURLToPath(moduleUrl);
  let started;
  try {
    started = realpathSync(resolve(argv[1] ?? ''));
  } catch {
    return;
  }
  if (started !== realpathSync(file)) return;
  console.log(headerComment(readFileSync(file, 'utf8')));
  process.exit(0);
}

/** A script's leading comment (after a shebang), `//` lines or one block comment, without its comment marks. */
export function headerComment(source) {
  const lines = source.split('\n');
  let at = lines[0]?.startsWith('#!') ? 1 : 0;
  const out = [];
  if (lines[at]?.trimStart().startsWith('/*')) {
    for (; at < lines.length; at++) {
      const line = lines[at];
      const closes = line.includes('*/');
      const text = line
        .replace(/^\s*\/\*\*?/, '')
        .replace(/\*\/.*$/, '')
        .replace(/^\s*\* ?/, '');
      if (text.trim() !== '' || out.length > 0) out.push(text.trimEnd());
      if (closes) break;
    }
  } else {
    for (; at < lines.length && lines[at].trimStart().startsWith('//'); at++) {
      out.push(
        lines[at]
          .trimStart()
          .replace(/^\/\/ ?/, '')
          .trimEnd(),
      );
    }
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out.length > 0 ? out.join('\n') : 'This bench has no usage note: read its source.';
}
