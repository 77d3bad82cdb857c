import { join } from 'node:path';
import { appendAll } from '../append-all.js';
import { withPrivateTempDir } from '../private-temp.js';
import type { DescribedEntry } from './describe-diff.js';
import type { GitRunner } from './git.js';
import { DIFF_INDEX } from './list-changes.js';

export interface ReviewDiffOptions {
  /** The base commit, or null in a repository without commits. */
  baseCommit: string | null;
  /** The base commit, or the empty tree. */
  from: string;
  /** The listed changes (ignored paths already left out): their new versions are already in the object store. */
  entries: readonly DescribedEntry[];
  /**
   * Paths to show, or null for all of them, in groups that stay in one git call: a rename's group holds its old path
   * too, or git would see a deletion and an addition.
   */
  pathspec: ReadonlyArray<readonly string[]> | null;
}

/** Keeps each git call's argv well under the kernel's limit (ARG_MAX is 128 kB per string list on some systems). */
const MAX_PATHSPEC_BYTES = 96 * 1024;

/**
 * The unified diff of the change set as it was when it was built, for reviewers. It rebuilds the new version in a
 * private index from the base and the object ids `git add -A` already wrote (`read-tree`, then `update-index
 * --index-info`), so it needs neither the working tree (which may have changed since) nor the user's index. Built on
 * request, because most runs never ask for it.
 */
export async function reviewDiff(git: GitRunner, options: ReviewDiffOptions): Promise<string> {
  return withPrivateTempDir('tollgate-review-', async (dir) => {
    const env = { GIT_INDEX_FILE: join(dir, 'index'), GIT_LITERAL_PATHSPECS: '1' };
    if (options.baseCommit !== null) await git.output(['read-tree', options.baseCommit], { env });
    await git.output(['update-index', '-z', '--index-info'], {
      env,
      input: indexInfo(options.entries, '0'.repeat(options.from.length)),
    });
    // Without --raw and -z the output is the plain patch; `DIFF_INDEX` minus those two.
    const args = [...DIFF_INDEX.filter((arg) => arg !== '-z' && arg !== '--raw'), '-p', '-M', options.from, '--'];
    if (options.pathspec === null) return await git.output(args, { env });
    const outputs: string[] = [];
    for (const chunk of chunkPaths(options.pathspec)) outputs.push(await git.output([...args, ...chunk], { env }));
    return outputs.join('');
  });
}

/** `update-index --index-info` records: `<mode> <id>\t<path>`; mode 0 removes the path. */
function indexInfo(entries: readonly DescribedEntry[], nullId: string): string {
  const records: string[] = [];
  for (const entry of entries) {
    if (entry.oldPath !== undefined) records.push(`0 ${nullId}\t${entry.oldPath}\0`);
    if (entry.kind === 'deleted') records.push(`0 ${nullId}\t${entry.path}\0`);
    else records.push(`${entry.mode.toString(8)} ${entry.id}\t${entry.path}\0`);
  }
  return records.join('');
}

function chunkPaths(groups: ReadonlyArray<readonly string[]>): string[][] {
  const chunks: string[][] = [];
  let current: string[] = [];
  let bytes = 0;
  for (const group of groups) {
    const size = group.reduce((sum, path) => sum + Buffer.byteLength(path) + 1, 0);
    if (current.length > 0 && bytes + size > MAX_PATHSPEC_BYTES) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    appendAll(current, group);
    bytes += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
