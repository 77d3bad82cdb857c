import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { findSaved, type Stamp, stampOf } from '../../core/run/tree-stamp.js';
import { writeFileAtomic } from '../../core/state/atomic-write.js';
import { checkSignature, signObject } from '../../core/state/signed-json.js';
import { loadStateKey, readStateKeyIfPresent } from '../../core/state/state-key.js';
import { ensureTollgateDir, TOLLGATE_DIR } from '../../core/state/tollgate-dir.js';

/**
 * The stop hook's fast path (under 100 ms on an unchanged, validated tree). Building the change set to get
 * its fingerprint stages the whole tree into a temporary index; instead, a stamp of what could change the answer
 * (src/core/run/tree-stamp.ts) is compared with the stamp saved the last time the full path found the tree validated.
 * A match means the same fingerprint and config, so the same answer, as long as that run's verdict is still in the
 * state file.
 */
const CACHE_FILE = 'stop-cache.json';
interface StopCache {
  stamp: string;
  fingerprint: string;
  configHash: string;
}

export type { Stamp } from '../../core/run/tree-stamp.js';

/** The stop hook's stamp of the work tree (`tree-stamp.ts`); null when `cwd` is not in a repository. */
export function stopStampOf(cwd: string, env: NodeJS.ProcessEnv, version: string): Promise<Stamp | null> {
  return stampOf({ cwd, env, version, purpose: 'stop' });
}

/** The files a stop's answer stands on besides the stamp, read while git takes it (`readStopFiles`). */
export interface StopFiles {
  repoRoot: string;
  key: Buffer | null;
  cache: string | null;
  state: string | null;
}

/** Reads the state key, the saved stamp and the state of the work tree at `repoRoot` (a missing one reads as null). */
export async function readStopFiles(repoRoot: string): Promise<StopFiles> {
  const text = (name: string) => readFile(join(repoRoot, TOLLGATE_DIR, name), 'utf8').catch(() => null);
  const [key, cache, state] = await Promise.all([
    readStateKeyIfPresent().catch(() => null),
    text(CACHE_FILE),
    text('state.json'),
  ]);
  return { repoRoot, key, cache, state };
}

/** Where a stop from `cwd` would find a saved stamp; null when there is none to read ahead (`findSaved`). */
export function findStopCache(cwd: string): string | null {
  return findSaved(cwd, join(TOLLGATE_DIR, CACHE_FILE));
}

/**
 * True when the saved stamp matches and the state still holds that passing verdict. Both files must carry a valid
 * signature (the user's state key, outside the repository): a forged stamp or verdict sends the hook down the full
 * path, which re-decides from the tree. Checking an HMAC of two small files costs microseconds and spawns nothing.
 * `read`: the files as read ahead for this stamp's work tree; read now when absent or of another tree.
 */
export async function validatedByStamp(stamp: Stamp, read?: StopFiles | null): Promise<boolean> {
  if (!stamp.vouches) return false;
  try {
    const files = read?.repoRoot === stamp.repoRoot ? read : await readStopFiles(stamp.repoRoot);
    const { key } = files;
    if (!key || files.cache === null) return false;
    const cache = JSON.parse(files.cache) as StopCache;
    if (checkSignature('stop-cache', cache, key) !== 'valid' || cache.stamp !== stamp.value) return false;
    if (cache.fingerprint === '') return true; // nothing had changed
    if (files.state === null) return false;
    const state = JSON.parse(files.state) as {
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

/**
 * Saves the stamp after the full path found the tree validated (unless the stamp is racy), creating `.tollgate/` when
 * nothing had changed yet (`fingerprint` is then ''), so that an untouched tree is answered fast too. Never fails the hook.
 */
export async function saveStamp(stamp: Stamp, fingerprint: string, configHash: string): Promise<void> {
  if (stamp.racy || !stamp.vouches) return;
  const cache: StopCache = { stamp: stamp.value, fingerprint, configHash };
  try {
    ensureTollgateDir(stamp.repoRoot);
    const signed = signObject('stop-cache', cache, await loadStateKey());
    await writeFileAtomic(join(stamp.repoRoot, TOLLGATE_DIR, CACHE_FILE), `${JSON.stringify(signed)}\n`);
  } catch {
    // No stamp: the next stop takes the full path.
  }
}
