/**
 * One file's added lines as `PatchStream` reads them: their bytes copied into one growing buffer, each followed by a
 * `\n`, so a piece's text is one decode of a run of it. A view of each line in git's output (and the joining copy
 * after) cost more than the rest of reading a patch.
 */
const NL = 0x0a;
/**
 * Small, so that the buffer grows (and is replaced) within the first few files, before V8 optimizes the parse: a first
 * growth after that (the first file of more than this many added bytes, anywhere in a history) threw the optimized
 * `add`, `hunkLine` and `push` away (code never run, a field no longer constant) and compiled them again.
 */
const INITIAL_BYTES = 256;
/** A buffer grown past this (a file of huge lines) is let go when the file ends, for one of `KEPT_AFTER_HUGE`. */
const KEEP_BYTES = 16 * 1024 * 1024;
const KEPT_AFTER_HUGE = 64 * 1024;

export class AddedLines {
  /** Byte offset of each line in `bytes`. */
  starts: number[] = [];
  /** The line in the new file of each line. */
  numbers: number[] = [];
  /** Bytes used, every line's `\n` included. */
  length = 0;
  private bytes = Buffer.allocUnsafe(INITIAL_BYTES);

  get count(): number {
    return this.starts.length;
  }

  /** `source[start, end)`, a line without its `\n`, as line `number` of the new file. */
  add(source: Buffer, start: number, end: number, number: number): void {
    const size = end - start;
    if (this.length + size + 1 > this.bytes.length) this.grow(this.length + size + 1);
    // A view and the engine's own copy: Buffer's `copy` is layers of JavaScript around it, paid per line.
    this.bytes.set(new Uint8Array(source.buffer, source.byteOffset + start, size), this.length);
    this.bytes[this.length + size] = NL;
    this.starts.push(this.length);
    this.numbers.push(number);
    this.length += size + 1;
  }

  /** The first `count` lines joined with `\n` (UTF-8 decoded: invalid bytes become U+FFFD). */
  text(count: number): string {
    const end = count >= this.starts.length ? this.length : this.starts[count]!;
    return this.bytes.toString('utf8', 0, end - 1);
  }

  /** Forgets the lines before `index`. */
  dropBefore(index: number): void {
    if (index <= 0) return;
    const from = index >= this.starts.length ? this.length : this.starts[index]!;
    this.bytes.copyWithin(0, from, this.length);
    this.length -= from;
    this.starts = this.starts.slice(index);
    for (let i = 0; i < this.starts.length; i++) this.starts[i]! -= from;
    this.numbers = this.numbers.slice(index);
  }

  clear(): void {
    this.starts = [];
    this.numbers = [];
    this.length = 0;
    if (this.bytes.length > KEEP_BYTES) this.bytes = Buffer.allocUnsafe(KEPT_AFTER_HUGE);
  }

  private grow(needed: number): void {
    const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, needed));
    this.bytes.copy(grown, 0, 0, this.length);
    this.bytes = grown;
  }
}
