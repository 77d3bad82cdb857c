/**
 * Peers' public labeled material for `npm run score:secrets -- --peer`, fetched on demand and cached outside the
 * repository (the samples hold format-valid tokens: they are never committed here).
 *
 * CredSweeper (Samsung/CredSweeper): `tests/samples/` scored against the project's own published output for its
 * default run, `tests/data/output.json`. Each reported credential is one labeled item spanning its lines. Kinds that
 * name an identifier rather than a secret (UUIDs, salts, nonces, bucket names, app ids) are "neutral": a finding on
 * them counts neither way.
 *
 *   --peer-source <git url or path>   default https://github.com/Samsung/CredSweeper.git (or $TOLLGATE_PEER_CREDSWEEPER)
 *   --peer-refresh                    fetch again even when cached
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const DEFAULT_SOURCE = 'https://github.com/Samsung/CredSweeper.git';
const NEUTRAL_KINDS = new Set([
  'UUID',
  'Salt',
  'Nonce',
  'AWS S3 Bucket',
  'Firebase Domain',
  'Tencent WeChat API App ID',
  'IPv4',
  'IPv6',
  'Certificate',
]);

function cacheRoot() {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'tollgate', 'peer-corpora');
}

function git(args, cwd) {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${(result.stderr || '').trim().split('\n')[0]}`);
  return result.stdout.trim();
}

/** Clones only what scoring needs into the cache, atomically: a half-fetched corpus is never used. */
function fetchCredSweeper(source, refresh) {
  const target = join(cacheRoot(), 'credsweeper');
  if (existsSync(join(target, 'commit')) && !refresh) return target;
  mkdirSync(cacheRoot(), { recursive: true });
  const staging = mkdtempSync(join(cacheRoot(), '.credsweeper-'));
  try {
    process.stderr.write(`fetching CredSweeper samples from ${source} …\n`);
    git(['clone', '--quiet', '--no-checkout', '--depth', '1', source, 'repo'], staging);
    const repo = join(staging, 'repo');
    git(['checkout', '--quiet', 'HEAD', '--', 'tests/samples', 'tests/data/output.json'], repo);
    writeFileSync(join(repo, 'commit'), `${git(['rev-parse', 'HEAD'], repo)}\n`);
    rmSync(join(repo, '.git'), { recursive: true, force: true });
    rmSync(target, { recursive: true, force: true });
    renameSync(repo, target);
    return target;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** `{ name, commit, dir, items }` with items in score-secrets' shape: file, line, endLine, family, label. */
export function loadPeerCorpus(args) {
  const at = args.indexOf('--peer-source');
  const source = at >= 0 ? args[at + 1] : process.env.TOLLGATE_PEER_CREDSWEEPER || DEFAULT_SOURCE;
  const root = fetchCredSweeper(source, args.includes('--peer-refresh'));
  const output = JSON.parse(readFileSync(join(root, 'tests/data/output.json'), 'utf8'));
  const prefix = './tests/samples/';
  // CredSweeper reports one value once per rule that matched it ("Key" and "Secret" for the same string): those are
  // one credential, and a scanner that reports the value once has found it. Labels with the same file, lines, columns
  // and value are merged; distinct values on one line stay distinct.
  const seen = new Set();
  const items = [];
  for (const credential of output) {
    const lines = credential.line_data_list.map((data) => data.line_num);
    const file = credential.line_data_list[0].path.slice(prefix.length);
    const value = credential.line_data_list
      .map((data) => `${data.line_num}:${data.value_start}:${data.value}`)
      .join('|');
    const label = NEUTRAL_KINDS.has(credential.rule) ? 'neutral' : 'secret';
    const key = `${file}\0${label}\0${value}`;
    if (seen.has(key)) continue;
    seen.add(key);
    items.push({
      file,
      line: Math.min(...lines),
      endLine: Math.max(...lines),
      family: credential.rule,
      label,
      what: credential.rule,
      // `AWS Multi`, `Google Multi`: an id and its secret reported together, on top of each part's own report.
      ...(credential.rule.endsWith(' Multi') ? { pairLines: [...new Set(lines)] } : {}),
    });
  }
  return {
    name: 'CredSweeper tests/samples vs tests/data/output.json',
    commit: readFileSync(join(root, 'commit'), 'utf8').trim(),
    dir: join(root, 'tests/samples'),
    items,
  };
}
