import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/**
 * Whether the file at `indexFile` holds exactly `bytes`, read in slices into one small buffer: a whole read of a
 * large index (1.8 MB for 20k files) is faulted into fresh memory page by page, 5-6 ms of CPU on the project's VMs,
 * where the slices touch 64 KiB once (docs/benchmarks.md, "A first run's young generation"). False when it is gone.
 */
export function indexFileIs(indexFile: string, bytes: Buffer): boolean {
  let fd: number;
  try {
    fd = openSync(indexFile, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  try {
    if (fstatSync(fd).size !== bytes.length) return false;
    const slice = Buffer.allocUnsafe(Math.min(64 * 1024, Math.max(bytes.length, 1)));
    let offset = 0;
    while (offset < bytes.length) {
      const read = readSync(fd, slice, 0, Math.min(slice.length, bytes.length - offset), offset);
      if (read === 0 || !slice.subarray(0, read).equals(bytes.subarray(offset, offset + read))) return false;
      offset += read;
    }
    // Nothing written past the size seen above.
    return readSync(fd, slice, 0, 1, offset) === 0;
  } finally {
    closeSync(fd);
  }
}
