import type { GitRunner } from './git.js';

/**
 * Reads blobs from the object store by id. Requests made in the same turn of the event loop share one
 * `git cat-file --batch`, so a validator that asks for many files at once costs one process, not one each.
 */
export class BlobReader {
  private pending = new Map<string, Array<(bytes: Buffer | null) => void>>();
  private scheduled = false;

  constructor(private readonly git: GitRunner) {}

  /** The blob's bytes, or null when it is not in the object store (or is not a blob). */
  read(id: string): Promise<Buffer | null> {
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
    let blobs = new Map<string, Buffer>();
    try {
      blobs = await readBlobs(this.git, [...batch.keys()]);
    } catch {
      // Every id in the batch reads as missing: the caller reports the file as unreadable.
    }
    for (const [id, waiting] of batch) for (const resolve of waiting) resolve(blobs.get(id) ?? null);
  }
}

/** `git cat-file --batch` over the ids: `<id> blob <size>\n<bytes>\n` per found blob, `<id> missing\n` otherwise. */
export async function readBlobs(git: GitRunner, ids: readonly string[]): Promise<Map<string, Buffer>> {
  const blobs = new Map<string, Buffer>();
  if (ids.length === 0) return blobs;
  const output = await git.outputBytes(['cat-file', '--batch'], { input: `${ids.join('\n')}\n` });
  let at = 0;
  for (const id of ids) {
    const end = output.indexOf(10, at);
    if (end === -1) break;
    const header = output.toString('latin1', at, end).split(' ');
    at = end + 1;
    if (header.length !== 3) continue; // "<id> missing" or "<id> ambiguous"
    const size = Number(header[2]);
    if (header[1] === 'blob') blobs.set(id, output.subarray(at, at + size));
    at += size + 1;
  }
  return blobs;
}
