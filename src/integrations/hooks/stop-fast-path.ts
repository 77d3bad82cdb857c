import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstat, readFile } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { writeFileAtomic } from '../../core/state/atomic-write.js';
import { checkSignature, signObject } from '../../core/state/signed-json.js';
import { loadStateKey, readStateKeyIfPresent } from '../../core/state/state-key.js';
import { TOLLGATE_DIR } from '../../core/state/tollgate-dir.js';

/**
 * The stop hook's fast path (under 100 ms on an unchanged, validated tree). Building the change set to get
 * its fingerprint stages the whole tree into a temporary index; instead, a stamp of what could change the answer
 * (`git status` of the work tree, the stat data of every path it lists, the config file and the TOLLGATE_* variables)
 * is compared with the stamp saved the last time the full path found the tree validated. A match means the same
 * fingerprint and config, so the same answer, as long as that run's verdict is still in the state file.
 *
 * Like git's racy-clean rule, no stamp is saved while a listed file was modified in the last two seconds: a write in
 * the same timestamp tick could otherwise go unseen.
 */
const CACHE_FILE = 'stop-cache.json';
const RACY_MS = 2000;
const CONFIG_FILE_NAMES = ['tollgate.config.yaml', '.tollgate.yaml'];

interface StopCache {
  stamp: string;
  fingerprint: string;
  configHash: string;
}

function git(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  return new Promise((resolvePromise) => {
    execFile('git', args, { cwd, env, maxBuffer: 64 * 1024 * 1024, timeout: 10_000 }, (error, stdout) =>
      resolvePromise(error ? null : stdout),
    );
  });
}

export interface Stamp {
  repoRoot: string;
  value: string;
  /** A listed file changed too recently for the stamp to be trusted later. */
  racy: boolean;
}

/** The repository root and the stamp of the work tree as seen from `cwd`; null when it is not a repository. */
export async function stampOf(cwd: string, env: NodeJS.ProcessEnv, version: string): Promise<Stamp | null> {
  const [top, status] = await Promise.all([
    git(['rev-parse', '--show-toplevel'], cwd, env),
    git(['--no-optional-locks', 'status', '--porcelain=v2', '-z', '--branch', '--untracked-files=all'], cwd, env),
  ]);
  if (top === null || status === null) return null;
  const repoRoot = top.trim();
  const hash = createHash('sha256').update(version).update('\0').update(status);
  const now = Date.now();
  let racy = false;
  const paths = new Set<string>();
  for (const record of status.split('\0')) {
    if (record === '' || record.startsWith('#')) continue;
    // v2 records end with the path; a rename's original path is the next NUL-separated record (listed on its own).
    const path = record.startsWith('?') || record.startsWith('!') ? record.slice(2) : record.split(' ').at(-1)!;
    paths.add(path);
  }
  const configOverride = env.TOLLGATE_CONFIG;
  const configPaths = configOverride
    ? [isAbsolute(configOverride) ? configOverride : resolve(cwd, configOverride)]
    : CONFIG_FILE_NAMES.map((name) => join(repoRoot, name));
  const statLines = await Promise.all(
    [...[...paths].sort().map((path) => join(repoRoot, path)), ...configPaths].map(async (path) => {
      try {
        const info = await lstat(path, { bigint: true });
        if (Number(info.mtimeMs) > now - RACY_MS) racy = true;
        return `${path}\0${info.mtimeNs}\0${info.ctimeNs}\0${info.size}\0${info.ino}`;
      } catch {
        return `${path}\0-`;
      }
    }),
  );
  for (const line of statLines) hash.update('\0').update(line);
  for (const key of Object.keys(env).sort()) {
    if (key.startsWith('TOLLGATE_') && key !== 'TOLLGATE_ACTIVE') hash.update(`\0${key}=${env[key]}`);
  }
  return { repoRoot, value: hash.digest('hex'), racy };
}

/**
 * True when the saved stamp matches and the state still holds that passing verdict. Both files must carry a valid
 * signature (the user's state key, outside the repository): a forged stamp or verdict sends the hook down the full
 * path, which re-decides from the tree. Checking an HMAC of two small files costs microseconds and spawns nothing.
 */
export async function validatedByStamp(stamp: Stamp): Promise<boolean> {
  try {
    const key = await readStateKeyIfPresent();
    if (!key) return false;
    const cache = JSON.parse(await readFile(join(stamp.repoRoot, TOLLGATE_DIR, CACHE_FILE), 'utf8')) as StopCache;
    if (checkSignature('stop-cache', cache, key) !== 'valid' || cache.stamp !== stamp.value) return false;
    if (cache.fingerprint === '') return true; // nothing had changed
    const state = JSON.parse(await readFile(join(stamp.repoRoot, TOLLGATE_DIR, 'state.json'), 'utf8')) as {
      runs?: { fingerprint: string; configHash: string; verdict: string; complete: boolean }[];
    };
    if (checkSignature('state', state, key) !== 'valid') return false;
    const runs = (state.runs ?? []).filter(
      (run) => run.fingerprint === cache.fingerprint && run.configHash === cache.configHash && run.complete,
    );
    return runs.at(-1)?.verdict === 'passed';
  } catch {
    return false;
  }
}

/** Blocks in a row recorded for this session's counter; 0 when there is none. */
export async function blocksSoFar(counterFile: string): Promise<number> {
  try {
    const counter = JSON.parse(await readFile(counterFile, 'utf8')) as { consecutiveBlocks?: number };
    return counter.consecutiveBlocks ?? 0;
  } catch {
    return 0;
  }
}

/** Saves the stamp after the full path found the tree validated (unless the stamp is racy). Never fails the hook. */
/** `fingerprint` is '' when nothing had changed. */
export async function saveStamp(stamp: Stamp, fingerprint: string, configHash: string): Promise<void> {
  if (stamp.racy) return;
  const cache: StopCache = { stamp: stamp.value, fingerprint, configHash };
  try {
    const signed = signObject('stop-cache', cache, await loadStateKey());
    await writeFileAtomic(join(stamp.repoRoot, TOLLGATE_DIR, CACHE_FILE), `${JSON.stringify(signed)}\n`);
  } catch {
    // No stamp: the next stop takes the full path.
  }
}
