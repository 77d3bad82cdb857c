import { closeSync, openSync, readSync } from 'node:fs';

/**
 * Whole-file reads into one buffer that a scanning thread reuses: no allocation, no promise and no thread-pool round
 * trip per file (on a tree of small files those cost more than the reading). The returned bytes are valid only until
 * the next read; the scanner decodes them into a string at once.
 */
export class ReusableFileReader {
  private buffer: Buffer;
  private readonly keepBytes: number;

  /** A buffer grown past `keepBytes` for one large file is dropped afterwards rather than held. */
  constructor(initialBytes = 1 << 20, keepBytes = 32 << 20) {
    this.buffer = Buffer.allocUnsafe(initialBytes);
    this.keepBytes = keepBytes;
  }

  /** The file's bytes; `sizeHint` (its size when listed) lets a large file be read in one call. */
  read(path: string, sizeHint = 0): Buffer {
    const fd = openSync(path, 'r');
    try {
      return this.readOpen(fd, sizeHint);
    } finally {
      closeSync(fd);
    }
  }

  /**
   * The bytes of a file already open when it holds exactly `size` bytes; null when it held more or fewer (the caller
   * then looks at it: grown, shrunk, or no file at all). Reads from the start; the caller closes it.
   */
  readExactly(fd: number, size: number): Buffer | null {
    this.makeRoom(size);
    let length = 0;
    for (;;) {
      const read = readSync(fd, this.buffer, length, this.buffer.length - length, length);
      if (read === 0) break;
      length += read;
      if (length > size) return null;
    }
    return length === size ? this.buffer.subarray(0, length) : null;
  }

  /** The same from a file already open, read from its start; the caller closes it. */
  readOpen(fd: number, sizeHint = 0): Buffer {
    this.makeRoom(sizeHint);
    let length = 0;
    for (;;) {
      if (length === this.buffer.length) {
        // The file grew since it was listed: read on into a larger buffer.
        const larger = Buffer.allocUnsafe(this.buffer.length * 2);
        this.buffer.copy(larger, 0, 0, length);
        this.buffer = larger;
      }
      const read = readSync(fd, this.buffer, length, this.buffer.length - length, length);
      if (read === 0) break;
      length += read;
    }
    return this.buffer.subarray(0, length);
  }

  /** Room for `size` bytes and one more (to see a file that grew), after giving back a buffer past `keepBytes`. */
  private makeRoom(size: number): void {
    if (this.buffer.length > this.keepBytes) this.buffer = Buffer.allocUnsafe(this.keepBytes);
    if (size >= this.buffer.length) this.buffer = Buffer.allocUnsafe(size + 1);
  }
}
