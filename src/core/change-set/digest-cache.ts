import { existsSync, mkdirSync } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { lazy } from '../lazy.js';
import { readSignedJsonFile, writeSignedJsonFile } from '../state/signed-json-file.js';
import { digestFile, type FileDigests } from './blob-id.js';
import { STATE_DIR } from './temp-index.js';

/**
 * The digests of files under a clean filter, kept from one run to the next, so that a Git LFS repository's files are
 * not all read and hashed again on every run (200 MB cost about 0.9 s of CPU each time): only the files whose stat
 * data changed are. An entry holds only while the file's device, inode, size, mtime and ctime (in nanoseconds) are the
 * ones it was read with: the stat data `git add` itself trusts for every file it does not read again. No write can
 * keep the ctime: the kernel sets it to the current time on every change of content or metadata, and no call sets it
 * back. A digest is kept only when the file's stat data is the same after the
 * read as before it, and its ctime is older than the read by `RACY_MS`, so an edit in the same clock tick as the
 * last one cannot pass for it (git's "racy clean" problem). The file is signed with the user's state key like the rest
 * of tollgate's state: one edited by hand is ignored, and then every file is read again.
 */
export const DIGEST_CACHE_FILE = join(STATE_DIR, 'cache', 'filtered-digests.json');

/** Files changed this recently before their read are read again next time (coarse file system clocks included). */
const RACY_MS = 2_000;

interface Entry {
  stat: string;
  objectFormat: string;
  blobId: string;
  sha256: string;
  size: number;
}

/** Built on first use: only a repository with filtered files reads it (lazy.ts). */
const fileSchema = lazy(() =>
  z.object({
    version: z.literal(1),
    entries: z.record(
      z.string(),
      z.object({
        stat: z.string(),
        objectFormat: z.string(),
        blobId: z.string(),
        sha256: z.string(),
        size: z.number().int().nonnegative(),
      }),
    ),
  }),
);

export interface DigestCacheOptions {
  /** Reads and hashes a file (tests count the reads). */
  digest?: typeof digestFile;
  /** The clock the racy-clean rule reads (tests move it). */
  now?: () => number;
}

export class DigestCache {
  private readonly kept = new Map<string, Entry>();
  private changed = false;

  private constructor(
    private readonly root: string,
    private readonly known: ReadonlyMap<string, Entry>,
    private readonly options: DigestCacheOptions,
  ) {}

  /** The cache of the repository at `root`; empty when there is none yet, or it cannot be trusted. */
  static async open(root: string, options: DigestCacheOptions = {}): Promise<DigestCache> {
    const read = await readSignedJsonFile(join(root, DIGEST_CACHE_FILE), fileSchema(), 'filtered-digests').catch(
      () => null,
    );
    const known = new Map(read?.kind === 'ok' ? Object.entries(read.value.entries) : []);
    return new DigestCache(root, known, options);
  }

  /** Both digests of the file at `path` (relative to the root), from the cache while its stat data holds. */
  async digestOf(path: string, objectFormat: string): Promise<FileDigests | null> {
    const absolute = join(this.root, path);
    const before = await statKey(absolute);
    if (before === null) return null;
    const known = this.known.get(path);
    if (known && known.stat === before.key && known.objectFormat === objectFormat) {
      this.kept.set(path, known);
      return { blobId: known.blobId, sha256: known.sha256, size: known.size };
    }
    const started = (this.options.now ?? Date.now)();
    const digests = await (this.options.digest ?? digestFile)(absolute, before.size, objectFormat);
    if (digests === null) return null;
    const after = await statKey(absolute);
    if (after?.key === before.key && before.ctimeMs < started - RACY_MS) {
      this.kept.set(path, { stat: before.key, objectFormat, ...digests });
      this.changed = true;
    }
    return digests;
  }

  /**
   * Writes the entries used or made by this run (a file no longer filtered drops out), when they differ from what was
   * read. Only into a state folder that exists: a change set never creates one. A failure to write only means reading
   * the files again next time.
   */
  async save(): Promise<void> {
    if (!this.changed && this.kept.size === this.known.size) return;
    if (!existsSync(join(this.root, STATE_DIR))) return;
    const path = join(this.root, DIGEST_CACHE_FILE);
    try {
      mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
      await writeSignedJsonFile(path, 'filtered-digests', { version: 1, entries: Object.fromEntries(this.kept) });
    } catch {
      // An optimization only.
    }
  }
}

async function statKey(absolute: string): Promise<{ key: string; size: number; ctimeMs: number } | null> {
  const stats = await lstat(absolute, { bigint: true }).catch(() => null);
  if (stats === null || !stats.isFile()) return null;
  return {
    key: `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`,
    size: Number(stats.size),
    ctimeMs: Number(stats.ctimeNs / 1_000_000n),
  };
}
