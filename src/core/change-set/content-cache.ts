import { readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';

/** How the new version of a path may be read. `none`: deletions, submodules, skipped files. */
export type ContentSource = 'file' | 'symlink' | 'binary' | 'none';

/**
 * Reads the new version of each changed path at most once, on first request. A symlink's content is its target text
 * (what git stores), never the file it points to. Read failures give null: the change set already lists unreadable
 * files in `skipped`, and a validator cannot do better with an exception.
 */
export class ContentCache {
  private readonly sources = new Map<string, ContentSource>();
  private readonly bytes = new Map<string, Promise<Buffer | null>>();
  private readonly texts = new Map<string, Promise<string | null>>();

  constructor(private readonly root: string) {}

  register(path: string, source: ContentSource): void {
    this.sources.set(path, source);
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
      const source = this.sources.get(path);
      cached =
        source === 'file' || source === 'symlink'
          ? this.readBytes(path).then((bytes) => (bytes === null ? null : bytes.toString('utf8')))
          : Promise.resolve(null);
      this.texts.set(path, cached);
    }
    return cached;
  }

  private async load(path: string): Promise<Buffer | null> {
    const source = this.sources.get(path);
    const absolute = join(this.root, path);
    try {
      if (source === 'file' || source === 'binary') return await readFile(absolute);
      if (source === 'symlink') return await readlink(absolute, { encoding: 'buffer' });
      return null;
    } catch {
      return null;
    }
  }
}
