/**
 * Reads `git cat-file --batch` output as it streams: `<oid> <type> <size>\n<content>\n` per object, or
 * `<name> missing\n`. Content over `maxBytes` is stepped over, not kept (`content: null`). Pure: fed bytes.
 */
export interface CatFileObject {
  size: number;
  /** Null when missing or over `maxBytes`. */
  content: Buffer | null;
  missing: boolean;
}

const SPACE = 0x20;
const NL = 0x0a;
/** The typed array's own search: `Buffer#indexOf` goes through a binding call, paid once per object here. */
const indexOfByte = Uint8Array.prototype.indexOf;
/** Sizes up to this many digits are read from the bytes (a safe integer for certain). */
const SIZE_DIGITS = 15;

export class CatFileStream {
  private header: Buffer | null = null;
  /** While reading an object: its size, what is kept of it, and bytes still to come (content and the final `\n`). */
  private size = 0;
  private parts: Buffer[] | null = null;
  private left = -1;

  constructor(
    private readonly maxBytes: number,
    private readonly onObject: (object: CatFileObject) => void,
  ) {}

  push(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.left >= 0) {
        // An object wholly in this chunk (most commit messages): a view of it, no copy. A new buffer per object (from
        // Node's 8 KiB pool, a new pool every few messages) cost more than reading the rest of the object.
        if (this.parts !== null && this.parts.length === 0 && this.left <= chunk.length - at) {
          const content = chunk.subarray(at, at + this.size);
          at += this.left;
          this.finishObject(content);
          continue;
        }
        const take = Math.min(this.left, chunk.length - at);
        if (this.parts) this.parts.push(chunk.subarray(at, at + take));
        this.left -= take;
        at += take;
        if (this.left === 0) this.finishObject(this.parts ? Buffer.concat(this.parts).subarray(0, this.size) : null);
        continue;
      }
      const nl = indexOfByte.call(chunk, NL, at);
      if (nl === -1) {
        this.header = Buffer.concat([this.header ?? Buffer.alloc(0), chunk.subarray(at)]);
        return;
      }
      if (this.header) {
        const line = Buffer.concat([this.header, chunk.subarray(at, nl)]);
        this.header = null;
        this.startObject(line, 0, line.length);
      } else this.startObject(chunk, at, nl);
      at = nl + 1;
    }
  }

  /** The header line `data[start, end)`, read in place (a string of each object's header cost more than its parse). */
  private startObject(data: Buffer, start: number, end: number): void {
    // `<oid> <type> <size>`: exactly two spaces.
    let spaces = 0;
    let last = -1;
    for (let i = start; i < end && spaces < 3; i++)
      if (data[i] === SPACE) {
        spaces++;
        last = i;
      }
    const size = spaces === 2 ? sizeField(data, last + 1, end) : Number.NaN;
    if (!Number.isSafeInteger(size)) {
      // `<name> missing` (or ambiguous): no content follows.
      this.onObject({ size: 0, content: null, missing: true });
      return;
    }
    this.size = size;
    this.parts = size <= this.maxBytes ? [] : null;
    this.left = size + 1;
  }

  private finishObject(content: Buffer | null): void {
    this.parts = null;
    this.left = -1;
    this.onObject({ size: this.size, content, missing: false });
  }
}

/** The size field `data[start, end)`: its digits read in place, anything else as `Number` reads its text. */
export function sizeField(data: Buffer, start: number, end: number): number {
  if (end <= start || end - start > SIZE_DIGITS) return Number(data.toString('latin1', start, end));
  let size = 0;
  for (let i = start; i < end; i++) {
    const digit = data[i]! - 0x30;
    if (digit < 0 || digit > 9) return Number(data.toString('latin1', start, end));
    size = size * 10 + digit;
  }
  return size;
}
