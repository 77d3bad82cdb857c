import { isAscii } from 'node:buffer';

/**
 * UTF-8 text that is not all ASCII, read one byte per character (Latin-1) for the scan. Decoding it as UTF-8 costs
 * about three times as much, and most such files (bundles with a few accented strings) turn into two-byte strings
 * that every later pass reads twice the memory of. Every keyword is ASCII, and ASCII bytes are the same characters in
 * both readings, so the scan finds the same keyword hits at byte offsets; what it reads around them decides alike
 * wherever that is ASCII. The scanner asks `touch` for each range a decision reads; one that holds a non-ASCII byte
 * makes the view `dirty`, and the file is scanned again as decoded text. Results of a clean scan are moved to
 * character offsets of the decoded text (`toCharOffsets`), so they are what the decoded text's scan gives.
 */
/** What a decision reads of a byte view beyond its one-byte text (`GateCheck`): a view, or part of one. */
export interface ByteReads {
  dirty: boolean;
  isAscii(start: number, end: number): boolean;
  decode(start: number, end: number): string;
}

export class Utf8ByteView implements ByteReads {
  /** Set once a range read by the scan holds a byte outside ASCII. */
  dirty = false;
  private oneByte: string | undefined;
  private decoded: string | undefined;

  /**
   * `bytes`: valid UTF-8, past any BOM. `ascii`: every byte is ASCII (checked by the caller), so no range is ever dirty
   * and the decoded text is the one-byte one: such a file is still read from its bytes, never whole as a string.
   */
  constructor(
    readonly bytes: Buffer,
    readonly ascii = false,
  ) {}

  /** The bytes as one character each. */
  get text(): string {
    this.oneByte ??= this.bytes.toString('latin1');
    return this.oneByte;
  }

  /** The real text, decoded once when asked (results to place, or a dirty scan to repeat). */
  utf8(): string {
    if (this.ascii) return this.text;
    this.decoded ??= this.bytes.toString('utf8');
    return this.decoded;
  }

  /** Notes that the scan read `[start, end)` of `text`: dirty when a byte there is not ASCII. */
  touch(start: number, end: number): void {
    if (!this.ascii && !this.dirty && !this.isAscii(start, end)) this.dirty = true;
  }

  /** Whether the bytes in `[start, end)` (clipped to the text) are all ASCII. */
  isAscii(start: number, end: number): boolean {
    const from = Math.max(0, start);
    const to = Math.min(this.bytes.length, end);
    return this.ascii || to <= from || isAscii(this.bytes.subarray(from, to));
  }

  /**
   * The decoded text of the bytes from `start` (a character's start) to `end`, or on to the end of the character
   * holding the byte at `end`.
   */
  decode(start: number, end: number): string {
    const { bytes } = this;
    let to = Math.min(bytes.length, end);
    while (to < bytes.length && (bytes[to]! & 0xc0) === 0x80) to++;
    return bytes.toString('utf8', start, to);
  }

  /**
   * The decoded text's offset of each byte offset in `offsets` (sorted ascending, each at a character's start): its
   * UTF-16 length up to there, that is bytes less continuation bytes, plus one for each four-byte sequence (a
   * surrogate pair).
   */
  toCharOffsets(offsets: readonly number[]): number[] {
    const { bytes } = this;
    const out: number[] = [];
    let byte = 0;
    let chars = 0;
    for (const offset of offsets) {
      for (; byte < offset; byte++) {
        const value = bytes[byte]!;
        if (value < 0x80) chars++;
        else if (value >= 0xf0) chars += 2;
        else if (value >= 0xc0) chars++;
      }
      out.push(chars);
    }
    return out;
  }
}

/** Spans in byte offsets moved to character offsets of `view`'s decoded text (the objects are copied). */
export function spansInChars<T extends { readonly start: number; readonly end: number }>(
  view: Utf8ByteView,
  lists: readonly T[][],
): void {
  const offsets = [...new Set(lists.flatMap((list) => list.flatMap((item) => [item.start, item.end])))].sort(
    (a, b) => a - b,
  );
  if (offsets.length === 0) return;
  const chars = view.toCharOffsets(offsets);
  const at = new Map(offsets.map((offset, index) => [offset, chars[index]!]));
  for (const list of lists) {
    for (let i = 0; i < list.length; i++) {
      const item = list[i]!;
      list[i] = { ...item, start: at.get(item.start)!, end: at.get(item.end)! };
    }
  }
}
