import { isAscii } from 'node:buffer';
import { WasmUnitLoop } from './unit-wasm.js';

/**
 * UTF-8 text read one byte per UTF-16 code unit of its decoded text: an ASCII character as itself, any other unit as
 * a byte of 0x80 or more that says how many bytes of the UTF-8 sequence it stands for. Offsets into `units` are the
 * decoded text's own, so every length and distance the scan works out (a line's length, a window's reach, a gate's
 * count of characters) is the decoded scan's; whatever reads a range holding a non-ASCII unit reads the decoded text
 * of that range (`decode`), never the whole file's. Made for every UTF-8 file that is not all ASCII
 * (`SecretScanner.scanView`).
 */

/** A two- or three-byte sequence's unit, and the two units of a four-byte one (a surrogate pair). */
const TWO = 0x82;
const THREE = 0x83;
const HIGH = 0x84;
const LOW = 0x85;
/** The byte offset of every 1,024th unit is kept; others are counted on from there. */
const STEP_SHIFT = 10;
const STEP_MASK = (1 << STEP_SHIFT) - 1;
/** Units at a time checked for ASCII and copied whole (a power of two, a multiple of a step). */
const BLOCK = 1 << 11;
const BLOCK_MASK = BLOCK - 1;
/** ASCII blocks checked and copied at once when the text has that many ahead (most non-ASCII files are mostly ASCII). */
const RUN = 16 * BLOCK;

/**
 * The units' memory that one thread's scans reuse, file after file: a fresh buffer for each file over a few KB is a
 * fresh mapping that the kernel zeroes page by page as the units are written (in the npm corpus's scan, most of the
 * cost of copying its ASCII blocks). A buffer grown past `keepBytes` for one large file is dropped at the next take.
 */
export class UnitScratch {
  private buffer = Buffer.allocUnsafe(0);

  constructor(private readonly keepBytes = 32 << 20) {}

  /** A buffer of at least `length` bytes, valid until the next take. */
  take(length: number): Buffer {
    if (this.buffer.length > this.keepBytes && length <= this.keepBytes) this.buffer = Buffer.allocUnsafe(0);
    if (length > this.buffer.length) this.buffer = Buffer.allocUnsafe(Math.max(length, 1 << 20));
    return this.buffer;
  }
}

export class UnitBytes {
  private constructor(
    /** One byte per unit of the decoded text. */
    readonly units: Buffer,
    private readonly bytes: Buffer,
    /** The byte offset of unit `k << STEP_SHIFT` (a low surrogate's offset is past its whole sequence). */
    private readonly byteAt: Float64Array,
  ) {}

  /**
   * `bytes`: valid UTF-8 past any BOM. Blocks not all ASCII go through `loop` (`unit-wasm.ts`), or the JavaScript loop
   * here with `null` (a Node without WebAssembly, and tests). `into`: where the units are written (at least
   * `bytes.length` long, and not read by anything else while this is in use), else a buffer of their own.
   */
  static of(bytes: Buffer, loop: WasmUnitLoop | null = WasmUnitLoop.get(), into: Buffer | null = null): UnitBytes {
    const units = into ?? Buffer.allocUnsafe(bytes.length);
    const byteAt = new Float64Array((bytes.length >> STEP_SHIFT) + 2);
    const n = bytes.length;
    let u = 0;
    let i = 0;
    while (i < n) {
      // An ASCII block (or run of `RUN` bytes) is copied as it is (one native check and copy), its step offsets
      // filled in after.
      if ((u & BLOCK_MASK) === 0 && i + BLOCK <= n) {
        const size = i + RUN <= n && isAscii(bytes.subarray(i, i + RUN)) ? RUN : BLOCK;
        if (size === RUN || isAscii(bytes.subarray(i, i + BLOCK))) {
          bytes.copy(units, u, i, i + size);
          for (let step = u; step < u + size; step += 1 << STEP_SHIFT) byteAt[step >> STEP_SHIFT] = i + step - u;
          u += size;
          i += size;
          continue;
        }
      }
      if (loop !== null) {
        // Up to the next block's first unit (or one past it, after a surrogate pair), then that block is checked.
        const run = loop.run(bytes, i, u, (u | BLOCK_MASK) + 1);
        units.set(run.units, u);
        const { steps } = run;
        const first = (u + STEP_MASK) >> STEP_SHIFT;
        for (let step = 0; step < steps.length; step++) byteAt[first + step] = steps[step]!;
        u = run.unit;
        i = run.next;
        continue;
      }
      if ((u & STEP_MASK) === 0) byteAt[u >> STEP_SHIFT] = i;
      const byte = bytes[i]!;
      if (byte < 0x80) {
        units[u++] = byte;
        i++;
      } else if (byte < 0xe0) {
        units[u++] = TWO;
        i += 2;
      } else if (byte < 0xf0) {
        units[u++] = THREE;
        i += 3;
      } else {
        units[u++] = HIGH;
        i += 4;
        if ((u & STEP_MASK) === 0) byteAt[u >> STEP_SHIFT] = i;
        units[u++] = LOW;
      }
    }
    if ((u & STEP_MASK) === 0) byteAt[u >> STEP_SHIFT] = i;
    return new UnitBytes(units.subarray(0, u), bytes, byteAt);
  }

  /** Whether the units `[start, end)` (clipped) are all ASCII, so their one-byte reading is the decoded text. */
  isAscii(start: number, end: number): boolean {
    const from = Math.max(0, start);
    const to = Math.min(this.units.length, end);
    return to <= from || isAscii(this.units.subarray(from, to));
  }

  /** The decoded text's units `[start, end)`, from the file's bytes (`start <= end`, both within the text). */
  decode(start: number, end: number): string {
    if (end <= start) return '';
    const { units } = this;
    // Half of a surrogate pair at either end: decode its whole sequence and leave the other half out.
    const lowFirst = units[start] === LOW;
    const highLast = units[end - 1] === HIGH;
    const from = this.byteOf(start) - (lowFirst ? 4 : 0);
    const text = this.bytes.toString('utf8', from, this.byteOf(end));
    if (!lowFirst && !highLast) return text;
    return text.slice(lowFirst ? 1 : 0, highLast ? text.length - 1 : text.length);
  }

  /** The byte offset where unit `unit` starts (past the whole sequence for a low surrogate). */
  private byteOf(unit: number): number {
    const { units } = this;
    let offset = this.byteAt[unit >> STEP_SHIFT]!;
    for (let at = unit & ~STEP_MASK; at < unit; at++) {
      const code = units[at]!;
      offset += code < 0x80 ? 1 : code === LOW ? 0 : code - 0x80;
    }
    return offset;
  }

  /** The one-byte reading of units `[start, end)` where it is the decoded text, else the decoded text. */
  text(start: number, end: number): string {
    return this.isAscii(start, end) ? this.units.toString('latin1', start, end) : this.decode(start, end);
  }
}
