import { randomBytes } from 'node:crypto';
import { readdirSync, rmdirSync, unlinkSync } from 'node:fs';
import { readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isSafeRunId, tollgatePaths } from './tollgate-dir.js';

/** A run folder on its way out: renamed first (one atomic step), so no reader ever sees half a run. */
const PRUNING_PREFIX = '.pruning-';
/**
 * A repeated run's record written ahead under the run lock (`unchanged-run.ts`), renamed into place once confirmed.
 * Pruning runs under the same lock, so one it finds was left by a process that died.
 */
export const PENDING_PREFIX = '.pending-';

/** Every string in a JSON value (the run ids the state refers to, wherever it keeps them). */
function stringsIn(value: unknown, into: Set<string>): Set<string> {
  if (typeof value === 'string') into.add(value);
  else if (Array.isArray(value)) for (const item of value) stringsIn(item, into);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) stringsIn(item, into);
  return into;
}

/** What a state file says, as far as pruning reads it: plain JSON shapes, so either reader of the state can pass it. */
export interface StateRunReferences {
  tools: unknown;
  runs: readonly { runId: string; verdict: string }[];
}

/**
 * The runs the state stands on: the validators' entries (last run, last success, last findings), which
 * `skipped_no_changes` and `tollgate waive` use, and the newest pass the stop hook may stand on. The rest of the
 * verdict ledger is fingerprints only and needs no folder.
 */
export function runsReferencedBy(state: StateRunReferences): Set<string> {
  const lastPass = state.runs.filter((run) => run.verdict === 'passed').at(-1)?.runId;
  return stringsIn(state.tools, new Set(lastPass ? [lastPass] : []));
}

/**
 * Keeps the newest `keep` run folders of `.tollgate/runs/` and removes the older ones, except the current run and every
 * run `referenced` names (read only when something is to go). Each folder is renamed aside, then deleted; leftovers of
 * an interrupted prune go too. Called with the run lock held. Returns the run ids removed. No zod here: the
 * no-change run's small bundle prunes too.
 */
export async function pruneRunFolders(
  repoRoot: string,
  options: { keep: number; current: string; referenced: () => Promise<Set<string>> },
): Promise<string[]> {
  const { runsDir } = tollgatePaths(repoRoot);
  let entries: string[];
  try {
    entries = (await readdir(runsDir, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
  for (const leftover of entries.filter((name) => name.startsWith(PRUNING_PREFIX) || name.startsWith(PENDING_PREFIX))) {
    await rm(join(runsDir, leftover), { recursive: true, force: true });
  }
  const runs = entries.filter(isSafeRunId).sort().reverse();
  if (runs.length <= options.keep) return [];
  const referenced = await options.referenced();
  referenced.add(options.current);
  const removed: string[] = [];
  for (const runId of runs.slice(options.keep)) {
    if (referenced.has(runId)) continue;
    const aside = join(runsDir, `${PRUNING_PREFIX}${runId}-${randomBytes(4).toString('hex')}`);
    try {
      await rename(join(runsDir, runId), aside);
    } catch {
      continue; // gone already, or not ours to move: leave it
    }
    await removeRunFolder(aside);
    removed.push(runId);
  }
  return removed;
}

/**
 * Removes a run folder set aside: its entries one by one, then the folder. A repeated run writes only files (its
 * events, report and telemetry); a full run also a folder per validator (`checks/`, `secrets/`...), whose files go
 * the same way. Node's recursive remove loads a module of its own and stats each entry first, which cost a repeat
 * run about a millisecond on every answer once the folder holds `keep` runs; anything else (folders deeper than
 * that, an error) is left to it. A symbolic link is removed, never followed.
 */
async function removeRunFolder(path: string): Promise<void> {
  try {
    removeEntries(path, 1);
  } catch {
    await rm(path, { recursive: true, force: true });
  }
}

/** Removes `path`'s files, its folders `depth` levels down the same way, then `path`; throws at anything else. */
function removeEntries(path: string, depth: number): void {
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    if (entry.isDirectory() && depth > 0) removeEntries(child, depth - 1);
    else unlinkSync(child);
  }
  rmdirSync(path);
}
