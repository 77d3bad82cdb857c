/**
 * A streaming JSON walker that hands out the raw text of chosen values without building the whole document. The
 * SARIF reader uses it so that a 50 MB log costs one result at a time, not a full parse (which takes several times
 * the file's size). Only structural bytes (`{}[]",:\`) are inspected; they are ASCII, so multi-byte UTF-8 sequences
 * split across chunks are never misread.
 */

export type JsonPath = readonly (string | number)[];

/** What to do with the value found at a path. */
export type ValueDecision =
  /** Walk into it (objects and arrays) and ask again for each member. */
  | 'descend'
  /** Hand its complete raw text to `onValue`. */
  | 'capture'
  /** Walk over it and forget it. */
  | 'skip';

/** What a value is, as far as its first byte tells. */
export type ValueKind = 'object' | 'array' | 'scalar';

export interface SplitterHandlers {
  decide(path: JsonPath, kind: ValueKind): ValueDecision;
  onValue(path: JsonPath, text: string): void;
  /** A container that was descended into has closed. */
  onClose?(path: JsonPath): void;
}

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} at byte ${offset}`);
    this.name = 'JsonSyntaxError';
  }
}

interface Frame {
  kind: 'object' | 'array';
  /** The member key being read (objects) or the element index (arrays). */
  key: string | number;
  /** object: key-or-end, key, colon, value, comma-or-end; array: value-or-end, value, comma-or-end. */
  expect: 'keyOrEnd' | 'key' | 'colon' | 'value' | 'commaOrEnd' | 'valueOrEnd';
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** Bytes that may appear in a number or in true/false/null. */
function isLiteralByte(byte: number): boolean {
  return (
    (byte >= 0x30 && byte <= 0x39) || // 0-9
    (byte >= 0x61 && byte <= 0x7a) || // a-z (true, false, null, e)
    byte === 0x45 || // E
    byte === 0x2b || // +
    byte === 0x2d || // -
    byte === 0x2e // .
  );
}

export class JsonSplitter {
  private readonly stack: Frame[] = [];
  private rootDone = false;
  private offset = 0;

  // Raw mode: walking over one value (captured or skipped) without tracking paths.
  private raw = false;
  private rawDepth = 0;
  private rawInString = false;
  private rawEscape = false;
  private rawLiteral = false;
  private rawCapture = false;
  private rawPath: JsonPath = [];
  private rawParts: Buffer[] = [];

  // Reading an object key.
  private inKey = false;
  private keyEscape = false;
  private keyParts: Buffer[] = [];

  constructor(private readonly handlers: SplitterHandlers) {}

  write(chunk: Buffer): void {
    let index = 0;
    let rawStart = this.raw ? 0 : -1;
    let keyStart = this.inKey ? 0 : -1;
    const length = chunk.length;
    while (index < length) {
      if (this.raw) {
        if (rawStart < 0) rawStart = index;
        const end = this.scanRaw(chunk, index);
        if (end < 0) {
          index = length;
          break;
        }
        // `end` is the index just past the value.
        if (this.rawCapture) this.rawParts.push(chunk.subarray(rawStart, end));
        rawStart = -1;
        this.finishRaw();
        index = end;
        continue;
      }
      if (this.inKey) {
        if (keyStart < 0) keyStart = index;
        const end = this.scanKey(chunk, index);
        if (end < 0) {
          index = length;
          break;
        }
        this.keyParts.push(chunk.subarray(keyStart, end));
        keyStart = -1;
        this.finishKey();
        index = end;
        continue;
      }
      const byte = chunk[index]!;
      if (isWhitespace(byte)) {
        index++;
        continue;
      }
      this.structural(byte, index);
      if (this.raw) rawStart = index;
      if (this.inKey) keyStart = index;
      // A literal starting a raw value is re-read by scanRaw; everything else consumed its byte.
      if (!(this.raw && this.rawLiteral)) index++;
    }
    if (this.raw && this.rawCapture && rawStart >= 0 && rawStart < length) this.rawParts.push(chunk.subarray(rawStart));
    if (this.inKey && keyStart >= 0 && keyStart < length) this.keyParts.push(chunk.subarray(keyStart));
    this.offset += length;
  }

  end(): void {
    if (this.raw && this.rawLiteral && this.rawDepth === 0) {
      // A literal running to the end of input (a bare number document).
      this.finishRaw();
    }
    if (this.raw || this.inKey || this.stack.length > 0 || !this.rootDone) {
      throw new JsonSyntaxError('unexpected end of input (is the file truncated?)', this.offset);
    }
  }

  private path(): (string | number)[] {
    return this.stack.map((frame) => frame.key);
  }

  private fail(message: string, at: number): never {
    throw this.errorAt(message, at);
  }

  private errorAt(message: string, at: number): JsonSyntaxError {
    return new JsonSyntaxError(message, this.offset + at);
  }

  /** One byte outside raw values and keys. */
  private structural(byte: number, at: number): void {
    const frame = this.stack.at(-1);
    if (!frame) {
      if (this.rootDone) this.fail(`unexpected ${JSON.stringify(String.fromCharCode(byte))} after the document`, at);
      this.startValue(byte, [], at);
      return;
    }
    switch (frame.expect) {
      case 'keyOrEnd':
      case 'key':
        if (byte === QUOTE) {
          this.inKey = true;
          this.keyParts = [];
          this.keyEscape = false;
          return;
        }
        if (byte === CLOSE_BRACE && frame.expect === 'keyOrEnd') {
          this.closeContainer();
          return;
        }
        throw this.errorAt('expected a property name', at);
      case 'colon':
        if (byte !== COLON) this.fail('expected ":"', at);
        frame.expect = 'value';
        return;
      case 'valueOrEnd':
        if (byte === CLOSE_BRACKET) {
          this.closeContainer();
          return;
        }
        this.startValue(byte, this.path(), at);
        return;
      case 'value':
        this.startValue(byte, this.path(), at);
        return;
      case 'commaOrEnd':
        if (byte === COMMA) {
          if (frame.kind === 'array') {
            frame.key = (frame.key as number) + 1;
            frame.expect = 'value';
          } else frame.expect = 'key';
          return;
        }
        if ((frame.kind === 'object' && byte === CLOSE_BRACE) || (frame.kind === 'array' && byte === CLOSE_BRACKET)) {
          this.closeContainer();
          return;
        }
        throw this.errorAt(`expected "," or "${frame.kind === 'object' ? '}' : ']'}"`, at);
    }
  }

  private startValue(byte: number, path: JsonPath, at: number): void {
    const isContainer = byte === OPEN_BRACE || byte === OPEN_BRACKET;
    if (!isContainer && byte !== QUOTE && !isLiteralByte(byte)) {
      this.fail(`unexpected ${JSON.stringify(String.fromCharCode(byte))}`, at);
    }
    const decision = this.handlers.decide(
      path,
      byte === OPEN_BRACE ? 'object' : byte === OPEN_BRACKET ? 'array' : 'scalar',
    );
    if (decision === 'descend' && isContainer) {
      this.stack.push(
        byte === OPEN_BRACE
          ? { kind: 'object', key: '', expect: 'keyOrEnd' }
          : { kind: 'array', key: 0, expect: 'valueOrEnd' },
      );
      return;
    }
    this.raw = true;
    this.rawCapture = decision === 'capture';
    this.rawPath = path;
    this.rawParts = [];
    this.rawInString = byte === QUOTE;
    this.rawEscape = false;
    this.rawLiteral = !isContainer && byte !== QUOTE;
    this.rawDepth = isContainer ? 1 : 0;
  }

  /**
   * Scans a raw value from `from`; returns the index just past its end, or -1 when it continues in the next chunk.
   * The opening byte of a container or string was consumed by `structural`; a literal's first byte was not.
   */
  private scanRaw(chunk: Buffer, from: number): number {
    const length = chunk.length;
    let index = from;
    if (this.rawLiteral) {
      while (index < length && isLiteralByte(chunk[index]!)) index++;
      return index < length ? index : -1;
    }
    let depth = this.rawDepth;
    let inString = this.rawInString;
    let escaped = this.rawEscape;
    while (index < length) {
      const byte = chunk[index]!;
      index++;
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) {
          inString = false;
          if (depth === 0) {
            this.rawDepth = 0;
            this.rawInString = false;
            return index;
          }
        }
        continue;
      }
      if (byte === QUOTE) inString = true;
      else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth++;
      else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) {
          this.rawDepth = 0;
          return index;
        }
      }
    }
    this.rawDepth = depth;
    this.rawInString = inString;
    this.rawEscape = escaped;
    return -1;
  }

  private finishRaw(): void {
    const capture = this.rawCapture;
    const parts = this.rawParts;
    const path = this.rawPath;
    this.raw = false;
    this.rawLiteral = false;
    this.rawParts = [];
    if (capture) {
      const text = parts.length === 1 ? parts[0]!.toString('utf8') : Buffer.concat(parts).toString('utf8');
      this.handlers.onValue(path, text);
    }
    this.valueDone();
  }

  private scanKey(chunk: Buffer, from: number): number {
    const length = chunk.length;
    let index = from;
    let escaped = this.keyEscape;
    while (index < length) {
      const byte = chunk[index]!;
      index++;
      if (escaped) escaped = false;
      else if (byte === BACKSLASH) escaped = true;
      else if (byte === QUOTE) return index;
    }
    this.keyEscape = escaped;
    return -1;
  }

  private finishKey(): void {
    const bytes = this.keyParts.length === 1 ? this.keyParts[0]! : Buffer.concat(this.keyParts);
    this.inKey = false;
    this.keyParts = [];
    const frame = this.stack.at(-1)!;
    // The key bytes include both quotes; JSON.parse decodes escapes.
    frame.key = JSON.parse(bytes.toString('utf8')) as string;
    frame.expect = 'colon';
  }

  private closeContainer(): void {
    const path = this.path();
    this.stack.pop();
    this.handlers.onClose?.(path.slice(0, -1));
    this.valueDone();
  }

  private valueDone(): void {
    const frame = this.stack.at(-1);
    if (frame) frame.expect = 'commaOrEnd';
    else this.rootDone = true;
  }
}
