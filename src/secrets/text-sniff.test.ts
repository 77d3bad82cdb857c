import { isAscii, isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { Utf8ByteView } from './byte-view.js';
import { decodeForScan, looksLikeLatin1, SNIFF_BYTES, utf16WithoutBom, utf32Of } from './text-decoding.js';

/**
 * `decodeForScan` as it was before the NUL search went first: every sniffing loop in turn. What it returns, less a
 * UTF-32 text (decoded by the same function either way): its encoding.
 */
function sniffedInTurn(bytes: Uint8Array): unknown {
  const utf32 = utf32Of(bytes);
  if (utf32) return { encoding: utf32.encoding };
  const le = new TextDecoder('utf-16le');
  const be = new TextDecoder('utf-16be');
  if (bytes.length >= 2) {
    if (bytes[0] === 0xff && bytes[1] === 0xfe) return { text: le.decode(bytes.subarray(2)), encoding: 'utf-16le' };
    if (bytes[0] === 0xfe && bytes[1] === 0xff) return { text: be.decode(bytes.subarray(2)), encoding: 'utf-16be' };
  }
  const bomless = utf16WithoutBom(bytes);
  if (bomless) return { text: (bomless === 'utf-16le' ? le : be).decode(bytes), encoding: bomless };
  for (let i = 0; i < Math.min(bytes.length, SNIFF_BYTES); i++) if (bytes[i] === 0) return null;
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isAscii(buffer)) return { view: buffer.toString('latin1'), ascii: true };
  if (isUtf8(buffer)) {
    const bom = buffer.length >= 3 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? 3 : 0;
    return { view: buffer.subarray(bom).toString('latin1'), ascii: false };
  }
  return looksLikeLatin1(bytes) ? { text: buffer.toString('latin1'), encoding: 'latin1' } : null;
}

function described(bytes: Uint8Array): unknown {
  const decoded = decodeForScan(bytes);
  if (decoded instanceof Utf8ByteView) return { view: decoded.bytes.toString('latin1'), ascii: decoded.ascii };
  if (decoded?.encoding.startsWith('utf-32')) return { encoding: decoded.encoding };
  return decoded;
}

const marks = [0x00, 0x00, 0x00, 0xff, 0xfe, 0xef, 0xbb, 0xbf, 0x0a, 0x09, 0x01, 0x41, 0x7a, 0x20, 0x80, 0xc3, 0xa9];
const byte = fc.oneof(fc.constantFrom(...marks), fc.integer({ min: 0, max: 255 }));
const text = fc.string({ unit: 'grapheme', maxLength: 60 });
const bom = fc.constantFrom([], [0xff, 0xfe], [0xfe, 0xff], [0xef, 0xbb, 0xbf], [0xff, 0xfe, 0, 0], [0, 0, 0xfe, 0xff]);
const encoded = fc.tuple(bom, text, fc.constantFrom('utf8', 'utf16le', 'latin1', 'utf32')).map(([mark, value, how]) => {
  const body =
    how === 'utf32'
      ? Buffer.from(
          [...value].flatMap((char) => [char.codePointAt(0)! & 0xff, (char.codePointAt(0)! >> 8) & 0xff, 0, 0]),
        )
      : Buffer.from(value, how as BufferEncoding);
  return Buffer.concat([Buffer.from(mark), body]);
});
/** Long enough that a NUL can lie past the sniffed head. */
const long = fc
  .tuple(fc.integer({ min: SNIFF_BYTES - 8, max: SNIFF_BYTES + 8 }), fc.constantFrom(0x41, 0xc3), fc.nat(40))
  .map(([length, fill, after]) => {
    const bytes = Buffer.alloc(length + after, fill === 0xc3 ? 0x41 : fill);
    if (fill === 0xc3) bytes[length - 2] = 0xc3;
    if (after > 0) bytes[length + after - 1] = 0;
    return bytes;
  });

describe('decodeForScan looks for a NUL first', () => {
  test('the same answer as every sniffing loop in turn, on any bytes', () => {
    const input = fc.oneof(
      fc.uint8Array({ maxLength: 40 }),
      fc.array(byte, { maxLength: 40 }).map(Buffer.from),
      encoded,
      long,
    );
    fc.assert(
      fc.property(input, (bytes) => {
        expect(described(bytes)).toEqual(sniffedInTurn(bytes));
      }),
      { numRuns: 4000 },
    );
  });
});
