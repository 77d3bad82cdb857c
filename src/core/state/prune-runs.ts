import { pruneRunFolders, runsReferencedBy } from './prune-run-folders.js';
import { readState } from './results-store.js';

/**
 * Keeps the newest `keep` run folders of `.tollgate/runs/` and removes the older ones, except the current run and every
 * run the state stands on (`runsReferencedBy`). Called with the run lock held. Returns the run ids removed.
 */
export async function pruneRuns(repoRoot: string, options: { keep: number; current: string }): Promise<string[]> {
  return pruneRunFolders(repoRoot, {
    ...options,
    referenced: async () => runsReferencedBy(await readState(repoRoot, { onWarning: () => {} })),
  });
}
