import { join } from 'node:path';
import { z } from 'zod';
import { withStateLock } from './lock.js';
import { readSignedJsonFile, writeSignedJsonFile } from './signed-json-file.js';
import { ensureTollgateDir, TOLLGATE_DIR, tollgatePaths } from './tollgate-dir.js';
import { trustedCommitsOf } from './trusted-commits.js';

/**
 * `.tollgate/history.json`: which commits tollgate trusts, so that the base of a change cannot be moved by moving a
 * ref. Two lists: the bases runs used (a `--base` a person gave is kept apart, since anyone with a shell can pass a
 * flag) and the HEADs of complete runs that passed. Everything reachable from a trusted commit is trusted
 * (src/core/change-set/pin-base.ts). Its own file with a two-call API (read the trusted commits, record a run), so
 * that it can be signed like the rest of the state without touching its callers.
 */
const HISTORY_FILE = 'history.json';
const HISTORY_VERSION = 1;
/** Recent entries are enough: an older trusted commit is an ancestor of a newer one in the usual case. */
const MAX_ENTRIES = 64;

const entrySchema = z.object({ commit: z.string().regex(/^[0-9a-f]{40,64}$/), at: z.string() });
const historySchema = z.looseObject({
  version: z.literal(HISTORY_VERSION),
  /** Bases of runs, resolved or pinned: trusted. */
  bases: z.array(entrySchema).default([]),
  /** `--base REV` of runs: recorded, never trusted. */
  flagBases: z.array(entrySchema).default([]),
  /** HEADs of complete passing runs whose base was not a flag. */
  validated: z.array(entrySchema).default([]),
});
type HistoryState = z.output<typeof historySchema>;

function historyPath(repoRoot: string): string {
  return join(tollgatePaths(repoRoot).root, HISTORY_FILE);
}

/**
 * Every trusted commit, newest first. A missing or unreadable file trusts nothing: the next run then trusts the base it
 * resolves, as a first run does.
 */
export async function readTrustedCommits(repoRoot: string): Promise<string[]> {
  // Signed like the rest of the state: a hand-written list of "validated" commits trusts nothing.
  const read = await readSignedJsonFile(historyPath(repoRoot), historySchema, 'history').catch(() => null);
  return read?.kind === 'ok' ? trustedCommitsOf(read.value) : [];
}

export interface RunHistoryRecord {
  /** The base the run used (null: a repository without commits, or a history with nothing trusted in it). */
  base: { commit: string | null; source: string };
  /** HEAD when the run started. */
  head: string | null;
  /** A complete run that passed: its HEAD becomes trusted (unless its base was a `--base` flag). */
  passed: boolean;
}

export async function recordRunHistory(repoRoot: string, record: RunHistoryRecord): Promise<void> {
  ensureTollgateDir(repoRoot);
  const path = historyPath(repoRoot);
  await withStateLock(repoRoot, async () => {
    const read = await readSignedJsonFile(path, historySchema, 'history').catch(() => null);
    const state: HistoryState =
      read?.kind === 'ok' ? read.value : { version: HISTORY_VERSION, bases: [], flagBases: [], validated: [] };
    const at = new Date().toISOString();
    const flag = record.base.source === 'flag';
    if (record.base.commit !== null) {
      const list = flag ? 'flagBases' : 'bases';
      state[list] = withEntry(state[list], { commit: record.base.commit, at });
    }
    if (record.passed && !flag && record.head !== null) {
      state.validated = withEntry(state.validated, { commit: record.head, at });
    }
    // Compact: the fast paths check its MAC on the text as read, without serializing the parsed object again.
    await writeSignedJsonFile(path, 'history', state, { label: `${TOLLGATE_DIR}/${HISTORY_FILE}`, indent: 0 });
  });
}

function withEntry<T extends { commit: string }>(list: readonly T[], entry: T): T[] {
  return [...list.filter((each) => each.commit !== entry.commit), entry].slice(-MAX_ENTRIES);
}
