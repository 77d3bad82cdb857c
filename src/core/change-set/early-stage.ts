import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { openPrivateTempDir } from '../private-temp.js';
import type { EarlyStage } from './early-stage-type.js';

export type { EarlyStage } from './early-stage-type.js';

import { createGitRunner } from './git.js';
import { guessRepo, type WorkTreeIndex } from './guess-repo.js';
import { copyIndex, startAddAll } from './temp-index.js';

/** Starts the snapshot's `git add` for the work tree around `cwd`; undefined when there is none to guess, or on any error. */
export function startEarlyStage(cwd: string): EarlyStage | undefined {
  let where: WorkTreeIndex | null;
  try {
    // The real path: the snapshot is taken of the work tree root git reports, whose links are resolved.
    where = guessRepo(realpathSync(cwd));
  } catch {
    return undefined;
  }
  if (where === null) return undefined;
  const folder = openPrivateTempDir('tollgate-index-');
  try {
    const indexFile = join(folder.dir, 'index');
    const copied = copyIndex(where.indexPath, indexFile);
    const abort = new AbortController();
    const adding = startAddAll(createGitRunner(where.root), { GIT_INDEX_FILE: indexFile }, abort.signal);
    let done = false;
    const settled = adding.then(
      () => {
        done = true;
      },
      () => {
        done = true;
      },
    );
    // A command that ends before any snapshot takes the stage (bad flags, a config error) leaves no git behind.
    const stopAtExit = () => abort.abort();
    process.once('exit', stopAtExit);
    let closed = false;
    return {
      where,
      dir: folder.dir,
      copied,
      adding,
      stop: () => {
        if (!done) abort.abort();
      },
      close: async () => {
        if (closed) return;
        closed = true;
        await settled;
        process.removeListener('exit', stopAtExit);
        folder.remove();
      },
    };
  } catch {
    folder.remove();
    return undefined;
  }
}

/** Whether two looks at the repository name the same work tree and index (both from `guessRepo`, so plain equality). */
export function sameWorkTreeIndex(a: WorkTreeIndex, b: WorkTreeIndex): boolean {
  return a.root === b.root && a.indexPath === b.indexPath;
}
