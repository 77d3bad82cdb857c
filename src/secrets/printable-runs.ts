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
  const latin1 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  collectRuns(bytes, 1, 0, emit, latin1);
  collectRuns(bytes, 2, 0, emit, latin1);
  collectRuns(bytes, 2, 1, emit, latin1);
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

/** One-byte runs: printable bytes, `MIN_RUN` or more (read as Latin-1, one character per byte). */
const ONE_BYTE_RUN = new RegExp(`[\\t\\n\\r\\x20-\\x7e]{${MIN_RUN},}`, 'g');
/** UTF-16LE runs: a printable byte, then a zero, `MIN_RUN` or more times (read as Latin-1, so in pairs of characters). */
const TWO_BYTE_RUN = new RegExp(`(?:[\\t\\n\\r\\x20-\\x7e]\\x00){${MIN_RUN},}`, 'g');

/**
 * Runs of characters `width` bytes wide starting at `offset` (mod width): one printable byte, then (UTF-16) a zero.
 * Found by the regular expression engine over the bytes read as Latin-1: a loop over each byte in JavaScript cost
 * more than the scan of the runs it found (binary files in history are mostly images, with few runs). A two-byte run
 * of either alignment is one match: a printable byte is never zero, so runs of the two alignments never overlap, and
 * each is found whole from its first pair.
 */
function collectRuns(
  bytes: Uint8Array,
  width: 1 | 2,
  offset: number,
  emit: (run: string, start: number) => void,
  latin1: string,
) {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const pattern = width === 1 ? ONE_BYTE_RUN : TWO_BYTE_RUN;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(latin1); match !== null; match = pattern.exec(latin1)) {
    const start = match.index;
    if (width === 2 && start % 2 !== offset) continue;
    emit(width === 1 ? match[0] : buffer.toString('utf16le', start, start + match[0].length), start);
  }
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
