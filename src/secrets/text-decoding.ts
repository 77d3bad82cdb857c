import { isAscii, isUtf8 } from 'node:buffer';
import { Utf8ByteView } from './byte-view.js';

/**
 * Text in the encodings files are really written in: UTF-8, UTF-16 (Windows tools, PowerShell and .reg exports write
 * it, often without a BOM) and Latin-1 (older configs and logs). A secret in any of them is still a secret, so only
 * content that is none of these counts as binary. Lines and columns are then in decoded characters.
 */
export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'utf-32le' | 'utf-32be' | 'latin1';

export interface DecodedText {
  text: string;
  encoding: TextEncoding;
}

/** Bytes sniffed for NULs and for UTF-16's zero-byte pattern (git also looks at the first 8000). */
export const SNIFF_BYTES = 8000;

const utf16le = new TextDecoder('utf-16le');
const utf16be = new TextDecoder('utf-16be');

/** The text, or null when the bytes are binary in every encoding we read. */
export function decodeText(bytes: Uint8Array): DecodedText | null {
  const decoded = decodeForScan(bytes);
  return decoded instanceof Utf8ByteView ? { text: decoded.utf8(), encoding: 'utf-8' } : decoded;
}

/**
 * As `decodeText`, but UTF-8 comes as a `Utf8ByteView` (its bytes), which the scanner reads for less: ASCII one byte
 * per character, other UTF-8 one byte per UTF-16 unit of its decoded text (`unit-bytes.ts`), decoding only what holds
 * non-ASCII text; ASCII too (a source map is parsed from its one-byte reading, `Utf8ByteView.text`). However dense its
 * non-ASCII text: on the npm corpus's 551 non-ASCII files (107 MB, maps aside) that cost 0.80x the CPU of the byte
 * reading that fell back to a decoded string of the whole file where it read non-ASCII text (145 files).
 */
export function decodeForScan(bytes: Uint8Array): DecodedText | Utf8ByteView | null {
  // No NUL in the sniffed head (one native search): no UTF-32 (its BOMs and its pattern hold zeros) and no BOM-less
  // UTF-16 (zeros in every other byte), so the sniffing loops over the head are skipped.
  if (indexOfByte.call(bytes.length > SNIFF_BYTES ? bytes.subarray(0, SNIFF_BYTES) : bytes, 0) !== -1)
    return decodeWithNul(bytes);
  const utf16 = utf16ByBom(bytes);
  if (utf16) return utf16;
  // Most source is ASCII: checked by simdutf, several times faster than a fatal TextDecoder. The scan reads it from its
  // bytes (`byte-scan.ts`), making strings only of what it looks at.
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isAscii(buffer)) return new Utf8ByteView(buffer, true);
  if (isUtf8(buffer)) {
    const bom = buffer.length >= 3 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? 3 : 0;
    const text = buffer.subarray(bom);
    return new Utf8ByteView(text);
  }
  return looksLikeLatin1(bytes) ? { text: buffer.toString('latin1'), encoding: 'latin1' } : null;
}

const indexOfByte = Uint8Array.prototype.indexOf;

/** Bytes with a NUL in their head: UTF-32 (by BOM or pattern), UTF-16 (by BOM or pattern), or binary. */
function decodeWithNul(bytes: Uint8Array): DecodedText | null {
  const utf32 = utf32Of(bytes);
  if (utf32) return { text: decodeUtf32(bytes.subarray(utf32.skip), utf32.encoding), encoding: utf32.encoding };
  const utf16 = utf16ByBom(bytes);
  if (utf16) return utf16;
  const bomless = utf16WithoutBom(bytes);
  if (bomless) return { text: (bomless === 'utf-16le' ? utf16le : utf16be).decode(bytes), encoding: bomless };
  return null;
}

/** UTF-16 by its BOM (checked after UTF-32's, whose little-endian BOM starts with UTF-16's). */
function utf16ByBom(bytes: Uint8Array): DecodedText | null {
  if (bytes.length < 2) return null;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { text: utf16le.decode(bytes.subarray(2)), encoding: 'utf-16le' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { text: utf16be.decode(bytes.subarray(2)), encoding: 'utf-16be' };
  return null;
}

/**
 * UTF-32 by its BOM, or by its zero pattern: ASCII-range text in UTF-32 has three zero bytes in every four-byte unit
 * (the last three for little-endian, the first three for big-endian). Binary formats almost never keep it up.
 */
export function utf32Of(bytes: Uint8Array): { encoding: 'utf-32le' | 'utf-32be'; skip: number } | null {
  if (bytes.length >= 4) {
    if (bytes[0] === 0xff && bytes[1] === 0xfe && bytes[2] === 0 && bytes[3] === 0)
      return { encoding: 'utf-32le', skip: 4 };
    if (bytes[0] === 0 && bytes[1] === 0 && bytes[2] === 0xfe && bytes[3] === 0xff)
      return { encoding: 'utf-32be', skip: 4 };
  }
  const end = Math.min(bytes.length, SNIFF_BYTES) & ~3;
  if (end < 8 || bytes.length % 4 !== 0) return null;
  let le = 0;
  let be = 0;
  for (let i = 0; i < end; i += 4) {
    // Four reads, no array: a history's few binary blobs are sniffed before V8 compiles this loop.
    const a = bytes[i]!;
    const b = bytes[i + 1]!;
    const c = bytes[i + 2]!;
    const d = bytes[i + 3]!;
    if (a !== 0 && b === 0 && c === 0 && d === 0) le++;
    if (a === 0 && b === 0 && c === 0 && d !== 0) be++;
  }
  const units = end / 4;
  if (le >= units * 0.7) return { encoding: 'utf-32le', skip: 0 };
  if (be >= units * 0.7) return { encoding: 'utf-32be', skip: 0 };
  return null;
}

/** UTF-32 code units to a string; a unit that is no code point becomes U+FFFD, as TextDecoder does for UTF-16. */
function decodeUtf32(bytes: Uint8Array, encoding: 'utf-32le' | 'utf-32be'): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parts: string[] = [];
  let chunk: number[] = [];
  for (let i = 0; i + 3 < bytes.length; i += 4) {
    const unit = view.getUint32(i, encoding === 'utf-32le');
    chunk.push(unit > 0x10ffff || (unit >= 0xd800 && unit <= 0xdfff) ? 0xfffd : unit);
    if (chunk.length === 4096) {
      parts.push(String.fromCodePoint(...chunk));
      chunk = [];
    }
  }
  parts.push(String.fromCodePoint(...chunk));
  return parts.join('');
}

/**
 * ASCII-range text in UTF-16 has a zero in every other byte: in the odd positions for little-endian, the even ones
 * for big-endian. Binary formats have zeros too, but not on one side only and almost nowhere on the other.
 */
export function utf16WithoutBom(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const end = Math.min(bytes.length, SNIFF_BYTES) & ~1;
  if (end < 4) return null;
  const units = end / 2;
  const few = units * 0.05;
  const most = units * 0.7;
  let evenZeros = 0;
  let oddZeros = 0;
  let controls = 0;
  for (let i = 0; i < end; i += 2) {
    const even = bytes[i]!;
    const odd = bytes[i + 1]!;
    if (even === 0) evenZeros++;
    if (odd === 0) oddZeros++;
    const low = even === 0 ? odd : odd === 0 ? even : -1;
    if (low !== -1 && low < 0x20 && low !== 0x09 && low !== 0x0a && low !== 0x0d) controls++;
    // Every 64 units, stop once the counts so far rule out both answers whatever the rest holds (binary content
    // mostly does so early): counts only grow, by at most one a unit.
    if ((i & 126) === 126) {
      const left = units - (i + 2) / 2;
      if (controls > few) return null;
      if (!(evenZeros <= few && oddZeros + left >= most) && !(oddZeros <= few && evenZeros + left >= most)) return null;
    }
  }
  if (controls > few) return null;
  if (oddZeros >= most && evenZeros <= few) return 'utf-16le';
  if (evenZeros >= most && oddZeros <= few) return 'utf-16be';
  return null;
}

/** Not UTF-8, yet no control bytes that text never holds: a single-byte text encoding, read as Latin-1. */
export function looksLikeLatin1(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, SNIFF_BYTES);
  let high = 0;
  for (let i = 0; i < end; i++) {
    const byte = bytes[i]!;
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c && byte !== 0x1b) return false;
    if (byte === 0x7f) return false;
    if (byte >= 0x80) high++;
  }
  // Mostly ASCII with some accented letters; a file that is mostly high bytes is compressed or encrypted data.
  return high <= end * 0.3;
}
