/**
 * A UTF-8 file as the scan takes it: its bytes, which the scan reads without a string of the whole file
 * (`SecretScanner.scanView`: an ASCII file's bytes are its text; any other is read one byte per UTF-16 unit of its
 * decoded text, `unit-bytes.ts`), and the strings made only when something asks for them.
 */
export class Utf8ByteView {
  private oneByte: string | undefined;
  private decoded: string | undefined;

  /**
   * `bytes`: valid UTF-8, past any BOM. `ascii`: every byte is ASCII (checked by the caller), so the decoded text is
   * the one-byte one: such a file is still read from its bytes, never whole as a string.
   */
  constructor(
    readonly bytes: Buffer,
    readonly ascii = false,
  ) {}

  /** The bytes as one character each (JSON's syntax is ASCII, so a source map parses the same from it). */
  get text(): string {
    this.oneByte ??= this.bytes.toString('latin1');
    return this.oneByte;
  }

  /** The real text, decoded once when asked (results to place, or a scan that needs the string). */
  utf8(): string {
    if (this.ascii) return this.text;
    this.decoded ??= this.bytes.toString('utf8');
    return this.decoded;
  }
}
