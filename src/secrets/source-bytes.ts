import { isAscii } from 'node:buffer';
import { Utf8ByteView } from './byte-view.js';

/** The buffer a thread writes each kept source into; one grown past `KEEP_BYTES` for a large source is not held. */
let scratch = Buffer.allocUnsafe(1 << 20);
const KEEP_BYTES = 32 << 20;

/**
 * A source map's source kept as its UTF-8 bytes one character each (`SourceMapPart.utf8Bytes`) as the view the scanner
 * reads (`SecretScanner.scanView`): the characters are written back as bytes into one buffer this thread reuses, a
 * native copy, with no decoding. Valid until the next call: a scan keeps no byte of it (what it keeps are strings).
 */
export function viewOfUtf8Bytes(text: string): Utf8ByteView {
  if (text.length > scratch.length || scratch.length > KEEP_BYTES) {
    scratch = Buffer.allocUnsafe(Math.max(text.length, 1 << 20));
  }
  const bytes = scratch.subarray(0, scratch.write(text, 0, 'latin1'));
  return new Utf8ByteView(bytes, isAscii(bytes));
}
