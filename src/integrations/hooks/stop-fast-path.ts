import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { recordStampEvidence } from '../../core/run/stamp-evidence-record.js';
import { findSaved, type Stamp, stampOf } from '../../core/run/tree-stamp.js';
import { readVerifiedJson, writeSignedJsonFile } from '../../core/state/signed-json-file.js';
import { readStateKeyIfPresent } from '../../core/state/state-key.js';
import { ensureTollgateDir, TOLLGATE_DIR } from '../../core/state/tollgate-dir.js';
import { trustedDigestOf } from '../../core/state/trusted-commits.js';
import { stopStampOptions } from './stop-stamp-start.js';

/**
 * The stop hook's fast path (under 100 ms on an unchanged, validated tree). Building the change set to get
 * its fingerprint stages the whole tree into a temporary index; instead, a stamp of what could change the answer
 * (src/core/run/tree-stamp.ts) is compared with the stamp saved the last time the full path found the tree validated.
 * A match means the same fingerprint and config, so the same answer, as long as that run's verdict is still in the
 * state file and the commits the history trusts (which decide a pinned base) are the ones the stamp was saved with.
 * The stamp takes every ref, as a run's does: a moved base ref sends the stop down the full path.
 */
const CACHE_FILE = 'stop-cache.json';
interface StopCache {
  stamp: string;
  fingerprint: string;
  configHash: string;
  /** `trustedDigestOf` the history when the stamp was saved. */
  trusted: string;
}

/** A run's verdict as `state.json` records it, as far as the stop hook reads it. */
interface RecordedVerdict {
  fingerprint: string;
  configHash: string;
  verdict: string;
  complete: boolean;
}

export type { Stamp } from '../../core/run/tree-stamp.js';

/** The stop hook's stamp of the work tree (`tree-stamp.ts`); null when `cwd` is not in a repository. */
export function stopStampOf(cwd: string, env: NodeJS.ProcessEnv, version: string): Promise<Stamp | null> {
  return stampOf(stopStampOptions(cwd, env, version));
}

/** What a stop's answer stands on besides the stamp, read while git takes it (`readStopFiles`): signed, verified. */
export interface StopFiles {
  repoRoot: string;
  cache: Record<string, unknown> | null;
  state: Record<string, unknown> | null;
  history: Record<string, unknown> | null;
}

/** The saved stamp and the state of the work tree at `repoRoot`, each null unless signed with the user's key. */
export async function readStopFiles(repoRoot: string): Promise<StopFiles> {
  const key = await readStateKeyIfPresent().catch(() => null);
  if (!key) return { repoRoot, cache: null, state: null, history: null };
  const [cache, state, history] = await Promise.all([
    readVerifiedJson(join(repoRoot, TOLLGATE_DIR, CACHE_FILE), 'stop-cache', key),
    readVerifiedJson(join(repoRoot, TOLLGATE_DIR, 'state.json'), 'state', key),
    readVerifiedJson(join(repoRoot, TOLLGATE_DIR, 'history.json'), 'history', key),
  ]);
  return { repoRoot, cache, state, history };
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
  const files = read?.repoRoot === stamp.repoRoot ? read : await readStopFiles(stamp.repoRoot);
  const cache = files.cache as Partial<StopCache> | null;
  if (!cache || cache.stamp !== stamp.value || cache.trusted !== trustedDigestOf(files.history)) return false;
  if (cache.fingerprint === '') return true; // nothing had changed
  const runs = files.state?.runs;
  if (!Array.isArray(runs)) return false;
  const matching = (runs as (Partial<RecordedVerdict> | null)[]).filter(
    (run) => run?.fingerprint === cache.fingerprint && run?.configHash === cache.configHash && run?.complete === true,
  );
  return matching.at(-1)?.verdict === 'passed';
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
  try {
    const { history } = await readStopFiles(stamp.repoRoot);
    const cache: StopCache = { stamp: stamp.value, fingerprint, configHash, trusted: trustedDigestOf(history) };
    ensureTollgateDir(stamp.repoRoot);
    await writeSignedJsonFile(join(stamp.repoRoot, TOLLGATE_DIR, CACHE_FILE), 'stop-cache', cache, { indent: 0 });
    // The next stamp may then take its git's answer from the evidence, without git (stamp-evidence.ts).
    if (stamp.taken) await recordStampEvidence(stamp.taken.cwd, stamp.taken.env);
  } catch {
    // No stamp: the next stop takes the full path.
  }
}
