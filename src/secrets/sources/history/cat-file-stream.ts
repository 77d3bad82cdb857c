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
      const line = Buffer.concat([this.header ?? Buffer.alloc(0), chunk.subarray(at, nl)]).toString('utf8');
      this.header = null;
      at = nl + 1;
      this.startObject(line);
    }
  }

  private startObject(line: string): void {
    const fields = line.split(' ');
    const size = Number(fields[2]);
    if (fields.length !== 3 || !Number.isSafeInteger(size)) {
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
