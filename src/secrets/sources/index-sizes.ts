import { readFileSync, statSync } from 'node:fs';
import { guessRepo } from '../../core/change-set/guess-repo.js';
import { INDEX_HASH_BYTES, uint32, walkIndexEntries } from '../../core/change-set/index-entries.js';

/** The mode bits that say what kind of file an index entry is, and the kind of a regular file (100644, 100755). */
const KIND_MASK = 0o170000;
const REGULAR_FILE = 0o100000;
/** The mode and size among an entry's ten 32-bit stat fields (see `statOf`). */
const MODE_FIELD = 24;
const SIZE_FIELD = 36;
/** Past this many index bytes per listed path, the listing `lstat`s its paths instead (see `indexFileSizes`). */
const MAX_INDEX_BYTES_PER_LISTED = 256;

/**
 * The size git's index last saw for each regular file it tracks (`sizeOf` a path as `git ls-files` prints it); null when the
 * index cannot be read whole (none yet, a split or sparse index, an environment that relocates it).
 *
 * Only a hint: the index may be older than the work tree (an edited file, a symlink or folder put where a file was, a
 * file deleted; git writes 0 for a size it could not trust). A scan orders its files and starts its workers by these
 * sizes and finds the truth when it opens each file (see `openListedFile`), which spares it one `lstat` per tracked
 * file before its first byte: on the npm corpus (8,854 files) that loop was 0.1 s of the main thread's CPU.
 */
export function indexFileSizes(repoRoot: string, listed: number): IndexFileSizes | null {
  const where = guessRepo(repoRoot);
  if (where === null || where.root !== repoRoot) return null;
  let index: Buffer;
  try {
    // Walking the index costs about 3 µs of CPU an entry, where each `lstat` it spares saves about 7 (fstat stays):
    // for a few listed files in a large index (a one-file scan), the `lstat`s are cheaper. An entry is 62 bytes
    // plus its path (110 on the npm corpus).
    if (statSync(where.indexPath).size > listed * MAX_INDEX_BYTES_PER_LISTED) return null;
    index = readFileSync(where.indexPath);
  } catch {
    return null;
  }
  // Each path is a slice of the index read once as Latin-1 (one byte one character, so exact for any bytes): a UTF-8
  // decoding per entry cost 8,854 entries 40 ms of CPU against 25. `sizeOf` spells a listed path the same way.
  const bytes = index.toString('latin1');
  // The object format is in the config; only one of the two walks the whole file, ending exactly at its checksum.
  for (const hashBytes of [INDEX_HASH_BYTES.sha1!, INDEX_HASH_BYTES.sha256!]) {
    const sizes = new Map<string, number>();
    const walked = walkIndexEntries(index, hashBytes, (entry) => {
      if ((uint32(index, entry.at + MODE_FIELD) & KIND_MASK) === REGULAR_FILE) {
        const name =
          entry.built === null
            ? bytes.slice(entry.nameStart, entry.nameEnd)
            : entry.built.toString('latin1', entry.nameStart, entry.nameEnd);
        sizes.set(name, uint32(index, entry.at + SIZE_FIELD));
      }
      return true;
    });
    if (walked) return new IndexFileSizes(sizes);
  }
  return null;
}

/** The sizes read, by path's bytes as Latin-1 (see `indexFileSizes`). */
export class IndexFileSizes {
  constructor(private readonly sizes: ReadonlyMap<string, number>) {}

  /** The index's size of a path as `git ls-files` prints it (UTF-8), or undefined when it has no regular file there. */
  sizeOf(path: string): number | undefined {
    return this.sizes.get(ASCII.test(path) ? path : Buffer.from(path, 'utf8').toString('latin1'));
  }
}

const ASCII = /^[\x00-\x7f]*$/;
