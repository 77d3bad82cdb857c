import { readFileSync, readlinkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { blobIdOf } from './blob-id.js';
import type { BlobReader } from './blob-reader.js';
import type { LargeSnapshotFile } from './types.js';

/**
 * How the new version of a path may be read. `large`: skipped as too large, read only through `largeFile`. `none`:
 * deletions, submodules, unreadable files.
 */
export type ContentSource = 'file' | 'symlink' | 'binary' | 'large' | 'none';

export interface ContentCacheOptions {
  root: string;
  /** The repository's object format (`sha1`, `sha256`), to hash what is read from disk. */
  objectFormat: string;
  /** Reads blobs of the snapshot from the object store. */
  blobs: BlobReader;
  /** Bytes of a file read from disk earlier in this run (file-stats.ts), taken in place of reading it again. */
  readEarly?: (path: string) => Buffer | undefined;
}

/**
 * Reads the new version of each changed path at most once, on first request, as the snapshot holds it: the blob that
 * `git add` wrote into the temporary index when the change set was built, never whatever the file holds later. The
 * file on disk is read first (or taken from the read done while git listed the change) and used when its blob id is
 * the snapshot's (the common case: no git process); when it differs (the file was edited since, or git converted its
 * line ends) the blob comes from the object store. A symlink's content is its target text (what git stores), never
 * the file it points to. Read failures give null: the change set
 * already lists unreadable files in `skipped`, and a validator cannot do better with an exception.
 */
export class ContentCache {
  private readonly sources = new Map<string, { source: ContentSource; id: string }>();
  private readonly bytes = new Map<string, Promise<Buffer | null>>();
  private readonly texts = new Map<string, Promise<string | null>>();

  constructor(private readonly options: ContentCacheOptions) {}

  /** `id`: the blob id of the path's new version in the snapshot. */
  register(path: string, source: ContentSource, id = ''): void {
    this.sources.set(path, { source, id });
  }

  /** A file skipped as too large: its snapshot blob id, and a whole read of it (not cached: it is large). */
  largeFile(path: string): LargeSnapshotFile | null {
    const registered = this.sources.get(path);
    if (registered?.source !== 'large' || registered.id === '') return null;
    return {
      blobId: registered.id,
      objectFormat: this.options.objectFormat,
      readWhole: () => this.load(path, true),
    };
  }

  /** The size of a blob of the snapshot, read from the object store (for a changed file that is not on disk). */
  blobSize(id: string): Promise<number | null> {
    return id === '' ? Promise.resolve(null) : this.options.blobs.size(id);
  }

  /** A blob of the snapshot, read from the object store and not cached (a symlink's target text, to check it first). */
  readBlob(id: string): Promise<Buffer | null> {
    return id === '' ? Promise.resolve(null) : this.options.blobs.read(id);
  }

  readBytes(path: string): Promise<Buffer | null> {
    let cached = this.bytes.get(path);
    if (!cached) {
      cached = this.load(path);
      this.bytes.set(path, cached);
    }
    return cached;
  }

  readText(path: string): Promise<string | null> {
    let cached = this.texts.get(path);
    if (!cached) {
      const source = this.sources.get(path)?.source;
      cached =
        source === 'file' || source === 'symlink'
          ? this.readBytes(path).then((bytes) => (bytes === null ? null : bytes.toString('utf8')))
          : Promise.resolve(null);
      this.texts.set(path, cached);
    }
    return cached;
  }

  private async load(path: string, large = false): Promise<Buffer | null> {
    const registered = this.sources.get(path);
    if (!registered || registered.source === 'none' || registered.id === '') return null;
    if (registered.source === 'large' && !large) return null;
    const absolute = () => join(this.options.root, path);
    const live = large
      ? await readFile(absolute()).catch(() => null)
      : (this.readEarly(path, registered.source) ?? readSmall(absolute(), registered.source));
    if (live !== null && blobIdOf(live, this.options.objectFormat) === registered.id) return live;
    return this.options.blobs.read(registered.id);
  }

  /** A regular file's bytes read earlier (checked against the blob id like any read from disk). */
  private readEarly(path: string, source: ContentSource): Buffer | undefined {
    return source === 'file' || source === 'binary' ? this.options.readEarly?.(path) : undefined;
  }
}

/**
 * A file within `validation.maxFileSize` (or a symlink's target text), read in one go on this thread: a change of
 * thousands of small files costs a few system calls each, where the asynchronous read paid four thread-pool round
 * trips each, and on a busy machine each round trip waits for a core.
 */
function readSmall(absolute: string, source: ContentSource): Buffer | null {
  try {
    return source === 'symlink' ? readlinkSync(absolute, { encoding: 'buffer' }) : readFileSync(absolute);
  } catch {
    return null;
  }
}
