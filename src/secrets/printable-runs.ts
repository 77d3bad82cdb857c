/**
 * Text inside binary content, as `strings` finds it: runs of printable ASCII (tabs and line ends included, so a PEM
 * block stays whole) at least `MIN_RUN` characters long, one byte per character or two (UTF-16, either byte order).
 * One NUL byte must not hide a secret: a file that is no text encoding is scanned for these runs instead.
 */

/** Shorter runs are noise in binary data; no credential the rules know is shorter. */
export const MIN_RUN = 8;

export interface PrintableRuns {
  /** The runs, one after another, each starting on a new line. */
  text: string;
  /** For each line of `text` (index = line - 1), the line of the file it comes from (1-based, counting 0x0A bytes). */
  lineMap: number[];
  runs: number;
}

/** The runs in `bytes`, whose first byte is on line `firstLine` of the file. */
export function printableRuns(bytes: Uint8Array, firstLine = 1): PrintableRuns {
  const newlines: number[] = [];
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) newlines.push(at);
  const lineOf = (position: number) => firstLine + countBelow(newlines, position);
  const out: PrintableRuns = { text: '', lineMap: [], runs: 0 };
  const parts: string[] = [];
  const emit = (run: string, start: number) => {
    const trimmed = run.replace(/[\r\n]+$/, '');
    if (trimmed.replace(/\s/g, '').length < MIN_RUN) return;
    const line = lineOf(start);
    const lines = trimmed.split('\n').length;
    for (let k = 0; k < lines; k++) out.lineMap.push(line + k);
    parts.push(trimmed);
    out.runs++;
  };
  collectRuns(bytes, 1, 0, emit);
  collectRuns(bytes, 2, 0, emit);
  collectRuns(bytes, 2, 1, emit);
  out.text = parts.length > 0 ? `${parts.join('\n')}\n` : '';
  return out;
}

/**
 * Where `bytes` may be cut so that no run spans the cut: after the last byte that is neither printable nor zero (such a
 * byte ends every run in every width). The whole length when there is none.
 */
export function runSafeCut(bytes: Uint8Array): number {
  for (let i = bytes.length - 1; i >= 0; i--) {
    const byte = bytes[i]!;
    if (byte !== 0 && !isPrintable(byte)) return i + 1;
  }
  return bytes.length;
}

function isPrintable(byte: number): boolean {
  return (byte >= 0x20 && byte <= 0x7e) || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

/**
 * Runs of characters `width` bytes wide starting at `offset` (mod width): one printable byte, then (UTF-16) a zero.
 */
function collectRuns(bytes: Uint8Array, width: 1 | 2, offset: number, emit: (run: string, start: number) => void) {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let start = -1;
  let count = 0;
  const flush = (end: number) => {
    if (start !== -1 && count >= MIN_RUN) emit(buffer.toString(width === 1 ? 'latin1' : 'utf16le', start, end), start);
    start = -1;
    count = 0;
  };
  let i = offset;
  for (; i + width <= bytes.length; i += width) {
    const byte = bytes[i]!;
    if (isPrintable(byte) && (width === 1 || bytes[i + 1] === 0)) {
      if (start === -1) start = i;
      count++;
    } else flush(i);
  }
  flush(i);
}

/** How many sorted values are below `value`. */
function countBelow(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Magic numbers of compiled code: ELF, Mach-O (32/64-bit, either byte order, and universal), PE (`MZ`), WebAssembly
 * and JVM class files (which share universal Mach-O's `CAFEBABE`).
 */
const COMPILED_CODE_MAGIC: readonly (readonly number[])[] = [
  [0x7f, 0x45, 0x4c, 0x46],
  [0xfe, 0xed, 0xfa, 0xce],
  [0xfe, 0xed, 0xfa, 0xcf],
  [0xce, 0xfa, 0xed, 0xfe],
  [0xcf, 0xfa, 0xed, 0xfe],
  [0xca, 0xfe, 0xba, 0xbe],
  [0x4d, 0x5a],
  [0x00, 0x61, 0x73, 0x6d],
];

/**
 * Compiled code (an executable, a shared library, WebAssembly, a class file), known by the magic number its first
 * bytes hold. Its printable runs are symbol tables and string pools: names and literals laid end to end, so that one
 * symbol's name reads as the key of the next one's text (`…Key=positional…`).
 */
export function isCompiledCode(head: Uint8Array): boolean {
  return COMPILED_CODE_MAGIC.some((magic) => magic.every((byte, i) => head[i] === byte));
}
