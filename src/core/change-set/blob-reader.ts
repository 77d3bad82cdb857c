import { parseCatFileBatch } from '../cat-file-batch.js';
import type { GitRunner } from './git.js';

/**
 * Reads blobs from the object store by id. Requests made in the same turn of the event loop share one
 * `git cat-file --batch`, so a validator that asks for many files at once costs one process, not one each.
 */
export class BlobReader {
  private readonly contents = new BatchedLookup<Buffer>((ids) => readBlobs(this.git, ids));
  private readonly sizes = new BatchedLookup<number>((ids) => readBlobSizes(this.git, ids));

  constructor(private readonly git: GitRunner) {}

  /** The blob's bytes, or null when it is not in the object store (or is not a blob). */
  read(id: string): Promise<Buffer | null> {
    return this.contents.get(id);
  }

  /** The blob's size in bytes without reading it (`cat-file --batch-check`), or null when it is not a blob here. */
  size(id: string): Promise<number | null> {
    return this.sizes.get(id);
  }
}

/** Collects the ids asked for in one turn of the event loop and answers them with one lookup. */
class BatchedLookup<T> {
  private pending = new Map<string, Array<(value: T | null) => void>>();
  private scheduled = false;

  constructor(private readonly lookup: (ids: string[]) => Promise<Map<string, T>>) {}

  get(id: string): Promise<T | null> {
    return new Promise((resolve) => {
      const waiting = this.pending.get(id);
      if (waiting) waiting.push(resolve);
      else this.pending.set(id, [resolve]);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    this.scheduled = false;
    let found = new Map<string, T>();
    try {
      found = await this.lookup([...batch.keys()]);
    } catch {
      // Every id in the batch reads as missing: the caller reports the file as unreadable.
    }
    for (const [id, waiting] of batch) for (const resolve of waiting) resolve(found.get(id) ?? null);
  }
}

/** `git cat-file --batch-check` over the ids: `<id> blob <size>\n` per found blob, `<id> missing\n` otherwise. */
async function readBlobSizes(git: GitRunner, ids: readonly string[]): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  if (ids.length === 0) return sizes;
  const output = await git.output(['cat-file', '--batch-check'], { input: `${ids.join('\n')}\n` });
  const lines = output.split('\n');
  ids.forEach((id, at) => {
    const header = (lines[at] ?? '').split(' ');
    if (header.length === 3 && header[1] === 'blob') sizes.set(id, Number(header[2]));
  });
  return sizes;
}

/** `git cat-file --batch` over the ids: `<id> blob <size>\n<bytes>\n` per found blob, `<id> missing\n` otherwise. */
export async function readBlobs(git: GitRunner, ids: readonly string[]): Promise<Map<string, Buffer>> {
  const blobs = new Map<string, Buffer>();
  if (ids.length === 0) return blobs;
  const output = await git.outputBytes(['cat-file', '--batch'], { input: `${ids.join('\n')}\n` });
  const { objects } = parseCatFileBatch(output, ids.length);
  ids.forEach((id, at) => {
    const object = objects[at];
    if (object?.type === 'blob') blobs.set(id, object.bytes);
  });
  return blobs;
}
