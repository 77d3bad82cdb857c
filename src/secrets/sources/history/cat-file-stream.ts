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
        const take = Math.min(this.left, chunk.length - at);
        if (this.parts) this.parts.push(chunk.subarray(at, at + take));
        this.left -= take;
        at += take;
        if (this.left === 0) this.finishObject();
        continue;
      }
      const nl = chunk.indexOf(0x0a, at);
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
    const spaces: number[] = [];
    for (let i = start; i < end && spaces.length < 3; i++) if (data[i] === SPACE) spaces.push(i);
    const size = spaces.length === 2 ? Number(data.toString('latin1', spaces[1]! + 1, end)) : Number.NaN;
    if (!Number.isSafeInteger(size)) {
      // `<name> missing` (or ambiguous): no content follows.
      this.onObject({ size: 0, content: null, missing: true });
      return;
    }
    this.size = size;
    this.parts = size <= this.maxBytes ? [] : null;
    this.left = size + 1;
  }

  private finishObject(): void {
    const content = this.parts ? Buffer.concat(this.parts).subarray(0, this.size) : null;
    this.parts = null;
    this.left = -1;
    this.onObject({ size: this.size, content, missing: false });
  }
}
