import { createHash } from 'node:crypto';
import { readBlobs } from '../change-set/blob-reader.js';
import type { GitRunner } from '../change-set/git.js';

/**
 * The policy files as they are in the base commit, read without a work tree: one `git ls-tree` for their blob ids, and
 * one `git cat-file --batch` for the contents, only of the files whose working copy differs.
 */
export interface BaseTree {
  /** The base commit, or null when there is none (a repository without commits). */
  readonly commit: string | null;
  /**
   * Blob id of each path in the base commit; a path missing from the map is absent there. `ahead` are paths a later
   * call will ask for: listed by the same `git ls-tree`, so that call spawns nothing.
   */
  blobIds(paths: readonly string[], ahead?: readonly string[]): Promise<ReadonlyMap<string, string>>;
  /** Contents of these blobs, by blob id. */
  contents(blobIds: readonly string[]): Promise<ReadonlyMap<string, Buffer>>;
  /** The blob id git would give these bytes, in this repository's object format. */
  blobIdOf(bytes: Buffer): string;
}

export function baseTree(git: GitRunner, commit: string | null): BaseTree {
  const known = new Map<string, string | null>();
  // A 64-digit commit id is a SHA-256 repository; without a commit, blob ids are only compared with each other.
  const algorithm = commit?.length === 64 ? 'sha256' : 'sha1';
  return {
    commit,
    async blobIds(paths, ahead = []) {
      const missing = paths.filter((path) => !known.has(path));
      if (missing.length > 0) missing.push(...ahead.filter((path) => !known.has(path) && !missing.includes(path)));
      if (commit !== null && missing.length > 0) {
        for (const path of missing) known.set(path, null);
        const listed = await git.output(['ls-tree', '-z', '--full-tree', commit, '--', ...missing.map(literal)]);
        for (const record of listed.split('\0')) {
          const match = /^\d+ blob ([0-9a-f]+)\t(.*)$/s.exec(record);
          if (match) known.set(match[2]!, match[1]!);
        }
      }
      const found = new Map<string, string>();
      for (const path of paths) {
        const id = known.get(path);
        if (id) found.set(path, id);
      }
      return found;
    },
    async contents(blobIds) {
      return readBlobs(git, [...new Set(blobIds)]);
    },
    blobIdOf(bytes) {
      return createHash(algorithm).update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
    },
  };
}

/** A pathspec that matches only this path (no globbing, no magic). */
function literal(path: string): string {
  return `:(literal)${path}`;
}

/** The policy files as HEAD has them; null in a repository without commits. */
export async function headTree(git: GitRunner): Promise<BaseTree | null> {
  const head = await git.run(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  return head.exitCode === 0 ? baseTree(git, head.stdout.trim()) : null;
}
