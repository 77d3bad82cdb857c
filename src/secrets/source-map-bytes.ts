/**
 * A UTF-8 source map's embedded sources read from its bytes: the map is checked as JSON and its sources unescaped in
 * one pass over the bytes, with no string of the whole map and no parse into strings (a one-byte string of each map
 * and `JSON.parse` of it were a tenth of the npm corpus's one-thread scan: fresh memory for 62 MB of strings, zeroed by
 * the kernel as it was written, then parsed).
 *
 * It answers only where it is sure to agree with `sourceMapPartsOfView(path, view, true)`: a map whose JSON is valid,
 * whose `version` is written `3`, `mappings` a string, `sources` and `sourcesContent` arrays of strings and nulls
 * (each key once), and whose escapes all stand for ASCII. Anything else (invalid JSON, another shape, a `\u0080` or
 * higher escape, a key written with an escape) is `undefined`: then `sourceMapPartsOfView` decides, as it did before.
 * A source's bytes are the file's between ASCII delimiters, with ASCII escapes written as their byte: valid UTF-8
 * whenever the file is, as `viewOfUtf8Bytes` of the one-byte reading would give.
 */

/** An embedded source: `<map path>!<source name>` and its UTF-8 bytes (valid until the next call). */
export interface SourceMapBytesPart {
  readonly path: string;
  readonly bytes: Buffer;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** Nested values deeper than this are left to `JSON.parse`. */
const MAX_DEPTH = 256;
/** A buffer grown past this for one large map is not held after it. */
const KEEP_BYTES = 32 << 20;

/** Where unescaped strings are written: `[start, end)` of the output, or null for a JSON null. */
type Span = readonly [number, number] | null;

let scratch = Buffer.allocUnsafe(1 << 20);

/** The embedded sources of a UTF-8 map (`bytes` past any BOM), or undefined when not sure (see above). */
export function sourceMapPartsOfBytes(path: string, bytes: Buffer): SourceMapBytesPart[] | undefined {
  if (scratch.length < bytes.length || scratch.length > KEEP_BYTES)
    scratch = Buffer.allocUnsafe(Math.max(bytes.length, 1 << 20));
  const reader = new MapReader(bytes, scratch);
  const map = reader.map();
  if (map === undefined) return undefined;
  const out = scratch;
  const parts: SourceMapBytesPart[] = [];
  const { sources, contents } = map;
  for (let index = 0; index < contents.length; index++) {
    const content = contents[index]!;
    if (content === null || content[1] === content[0]) continue;
    const source = sources[index];
    const name =
      source === undefined || source === null ? `source-${index}` : out.toString('utf8', source[0], source[1]);
    parts.push({ path: `${path}!${name}`, bytes: out.subarray(content[0], content[1]) });
  }
  return parts;
}

interface MapFields {
  readonly sources: Span[];
  readonly contents: Span[];
}

/** One pass over the map's bytes: every value checked, the strings that are kept written unescaped to `out`. */
class MapReader {
  private at = 0;
  private written = 0;
  /** `bytes` and `out` read and written four bytes at a time (`string`): unaligned, so any offset. */
  private readonly words: DataView;
  private readonly outWords: DataView;

  constructor(
    private readonly bytes: Buffer,
    private readonly out: Buffer,
  ) {
    this.words = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    this.outWords = new DataView(out.buffer, out.byteOffset, out.length);
  }

  /** The map's sources and contents, or undefined (not sure). */
  map(): MapFields | undefined {
    const { bytes } = this;
    this.space();
    if (bytes[this.at] !== 0x7b) return undefined;
    this.at++;
    let version = false;
    let mappings = false;
    let sources: Span[] | undefined;
    let contents: Span[] | undefined;
    this.space();
    if (bytes[this.at] === 0x7d) return undefined;
    for (;;) {
      const key = this.key();
      if (key === undefined) return undefined;
      this.space();
      if (key === 'version') {
        // Written `3` and nothing else: `3.0` or `3e0` parse to 3 too, but are not worth being sure of.
        const start = this.at;
        if (version || bytes[start] !== 0x33 || !this.number() || this.at !== start + 1) return undefined;
        version = true;
      } else if (key === 'mappings') {
        if (mappings || bytes[this.at] !== QUOTE || this.string(false) === undefined) return undefined;
        mappings = true;
      } else if (key === 'sources' || key === 'sourcesContent') {
        if ((key === 'sources' ? sources : contents) !== undefined) return undefined;
        const spans = this.strings();
        if (spans === undefined) return undefined;
        if (key === 'sources') sources = spans;
        else contents = spans;
      } else if (!this.value(1)) return undefined;
      this.space();
      const next = bytes[this.at++];
      if (next === 0x7d) break;
      if (next !== 0x2c) return undefined;
    }
    this.space();
    if (this.at !== bytes.length || !version || !mappings) return undefined;
    return { sources: sources ?? [], contents: contents ?? [] };
  }

  /** Past JSON's whitespace. */
  private space(): void {
    const { bytes } = this;
    const n = bytes.length;
    let at = this.at;
    // Not read past the end: an out-of-bounds read deoptimizes the compiled loop.
    while (at < n) {
      const byte = bytes[at]!;
      if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) break;
      at++;
    }
    this.at = at;
  }

  /** A member's key and its colon: the key's text when it holds no escape, else undefined. */
  private key(): string | undefined {
    const { bytes } = this;
    this.space();
    if (bytes[this.at] !== QUOTE) return undefined;
    const start = this.at + 1;
    const end = bytes.indexOf(QUOTE, start);
    if (end === -1) return undefined;
    for (let at = start; at < end; at++) if (bytes[at]! < 0x20 || bytes[at] === BACKSLASH) return undefined;
    this.at = end + 1;
    this.space();
    if (bytes[this.at++] !== 0x3a) return undefined;
    return bytes.toString('latin1', start, end);
  }

  /** An array of strings and nulls, each string written out; undefined for any other value. */
  private strings(): Span[] | undefined {
    const { bytes } = this;
    if (bytes[this.at++] !== 0x5b) return undefined;
    const spans: Span[] = [];
    this.space();
    if (bytes[this.at] === 0x5d) {
      this.at++;
      return spans;
    }
    for (;;) {
      this.space();
      if (bytes[this.at] === QUOTE) {
        const span = this.string(true);
        if (span === undefined) return undefined;
        spans.push(span);
      } else if (this.literal('null')) spans.push(null);
      else return undefined;
      this.space();
      const next = bytes[this.at++];
      if (next === 0x5d) return spans;
      if (next !== 0x2c) return undefined;
    }
  }

  /** Any JSON value at nesting `depth`; false when invalid or not sure. */
  private value(depth: number): boolean {
    if (depth > MAX_DEPTH) return false;
    const { bytes } = this;
    this.space();
    const first = bytes[this.at];
    if (first === QUOTE) return this.string(false) !== undefined;
    if (first === 0x7b || first === 0x5b) return this.container(depth, first === 0x7b);
    if (first === 0x74) return this.literal('true');
    if (first === 0x66) return this.literal('false');
    if (first === 0x6e) return this.literal('null');
    return this.number();
  }

  /** An object (`{`) or array (`[`) and everything in it. */
  private container(depth: number, object: boolean): boolean {
    const { bytes } = this;
    const close = object ? 0x7d : 0x5d;
    this.at++;
    this.space();
    if (bytes[this.at] === close) {
      this.at++;
      return true;
    }
    for (;;) {
      if (object) {
        this.space();
        if (bytes[this.at] !== QUOTE || this.string(false) === undefined) return false;
        this.space();
        if (bytes[this.at++] !== 0x3a) return false;
      }
      if (!this.value(depth + 1)) return false;
      this.space();
      const next = bytes[this.at++];
      if (next === close) return true;
      if (next !== 0x2c) return false;
    }
  }

  /** `word` exactly. */
  private literal(word: string): boolean {
    const { bytes } = this;
    for (let k = 0; k < word.length; k++) if (bytes[this.at + k] !== word.charCodeAt(k)) return false;
    this.at += word.length;
    return true;
  }

  /** A number as JSON writes one: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`. */
  private number(): boolean {
    const { bytes } = this;
    let at = this.at;
    if (bytes[at] === 0x2d) at++;
    if (bytes[at] === 0x30) at++;
    else if (isDigit(bytes[at])) while (isDigit(bytes[at])) at++;
    else return false;
    if (bytes[at] === 0x2e) {
      at++;
      if (!isDigit(bytes[at])) return false;
      while (isDigit(bytes[at])) at++;
    }
    if (bytes[at] === 0x65 || bytes[at] === 0x45) {
      at++;
      if (bytes[at] === 0x2b || bytes[at] === 0x2d) at++;
      if (!isDigit(bytes[at])) return false;
      while (isDigit(bytes[at])) at++;
    }
    this.at = at;
    return true;
  }

  /**
   * The string at `at` (its opening quote), checked; with `keep`, written unescaped to the output and its span there
   * returned (else `[0, 0]`). Undefined when invalid, or when an escape stands for a character past ASCII.
   */
  private string(keep: boolean): Span | undefined {
    const { bytes, out, words, outWords } = this;
    const n = bytes.length;
    let at = this.at + 1;
    const start = this.written;
    let o = start;
    for (;;) {
      // Four plain bytes at a time (written out at `o`, which never passes `at`, so within `out`), then byte by byte.
      while (at + 4 <= n) {
        const word = words.getInt32(at, true);
        if (holdsSpecial(word)) break;
        if (keep) outWords.setInt32(o, word, true);
        at += 4;
        o += 4;
      }
      if (keep) while (at < n && PLAIN[bytes[at]!] === 1) out[o++] = bytes[at++]!;
      else while (at < n && PLAIN[bytes[at]!] === 1) at++;
      if (at >= n) return undefined;
      const byte = bytes[at]!;
      if (byte === QUOTE) break;
      if (byte !== BACKSLASH) return undefined;
      const escaped = escapedByte(bytes, at + 1);
      if (escaped < 0) return undefined;
      if (keep) out[o++] = escaped;
      at += bytes[at + 1] === 0x75 ? 6 : 2;
    }
    this.at = at + 1;
    if (!keep) return [0, 0];
    this.written = o;
    return [start, o];
  }
}

/** 1 for a byte that stands for itself in a JSON string: not a control character, a quote or a backslash. */
const PLAIN = new Uint8Array(256).fill(1).fill(0, 0, 0x20);
PLAIN[QUOTE] = 0;
PLAIN[BACKSLASH] = 0;

/**
 * Whether one of the four bytes of `word` is not plain: below 0x20, a quote or a backslash (exact: a byte is flagged
 * only at or above such a byte, where a borrow may start). Four bytes a test: the npm corpus's 62 MB of maps are walked
 * in 0.69-0.72x the CPU of the byte-by-byte loop (docs/benchmarks.md, session 26, helper "alloc").
 */
function holdsSpecial(word: number): boolean {
  const quote = word ^ 0x22222222;
  const backslash = word ^ 0x5c5c5c5c;
  const flagged =
    ((word - 0x20202020) & ~word) | ((quote - 0x01010101) & ~quote) | ((backslash - 0x01010101) & ~backslash);
  return (flagged & 0x80808080) !== 0;
}

function isDigit(byte: number | undefined): boolean {
  return byte !== undefined && byte >= 0x30 && byte <= 0x39;
}

/** The ASCII byte the escape after a backslash at `at - 1` stands for; -1 when invalid or past ASCII. */
function escapedByte(bytes: Buffer, at: number): number {
  switch (bytes[at]) {
    case QUOTE:
      return QUOTE;
    case BACKSLASH:
      return BACKSLASH;
    case 0x2f:
      return 0x2f;
    case 0x62:
      return 0x08;
    case 0x66:
      return 0x0c;
    case 0x6e:
      return 0x0a;
    case 0x72:
      return 0x0d;
    case 0x74:
      return 0x09;
    case 0x75: {
      let code = 0;
      for (let k = 1; k <= 4; k++) {
        const digit = hexValue(bytes[at + k]);
        if (digit < 0) return -1;
        code = (code << 4) | digit;
      }
      return code < 0x80 ? code : -1;
    }
    default:
      return -1;
  }
}

function hexValue(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  return -1;
}
