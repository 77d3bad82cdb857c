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

/** `utf16WithoutBom` as it was before it stopped early: every unit of the head counted. */
function utf16Counted(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const end = Math.min(bytes.length, SNIFF_BYTES) & ~1;
  if (end < 4) return null;
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
  }
  const units = end / 2;
  if (controls > units * 0.05) return null;
  if (oddZeros >= units * 0.7 && evenZeros <= units * 0.05) return 'utf-16le';
  if (evenZeros >= units * 0.7 && oddZeros <= units * 0.05) return 'utf-16be';
  return null;
}

/**
 * Bytes whose even and odd positions are zero, a control byte or a letter with the given chances (in 1/1000), the
 * rest random: near every threshold of the UTF-16 and UTF-32 tests, at any length up to past the sniffed head.
 */
const zeroPatterned = fc
  .record({
    length: fc.integer({ min: 0, max: SNIFF_BYTES + 64 }),
    evenZero: fc.integer({ min: 0, max: 1000 }),
    oddZero: fc.integer({ min: 0, max: 1000 }),
    control: fc.integer({ min: 0, max: 120 }),
    seed: fc.integer({ min: 1, max: 0x7fffffff }),
  })
  .map(({ length, evenZero, oddZero, control, seed }) => {
    let state = seed;
    const next = () => {
      state = (state * 48271) % 0x7fffffff;
      return state;
    };
    const bytes = new Uint8Array(length);
    for (let i = 0; i < length; i++) {
      const roll = next() % 1000;
      if (roll < (i % 2 === 0 ? evenZero : oddZero)) bytes[i] = 0;
      else if (next() % 1000 < control) bytes[i] = next() % 0x20;
      else bytes[i] = i % 3 === 0 ? 0x41 + (next() % 26) : next() % 256;
    }
    return bytes;
  });

describe('the sniffing loops that stop early', () => {
  test('utf16WithoutBom gives the answer of counting every unit, on any bytes', () => {
    const answers = new Set<string | null>();
    fc.assert(
      fc.property(fc.oneof(zeroPatterned, encoded, fc.uint8Array({ maxLength: 300 })), (bytes) => {
        const answer = utf16WithoutBom(bytes);
        answers.add(answer);
        expect(answer).toBe(utf16Counted(bytes));
      }),
      { numRuns: 1500 },
    );
    // The inputs reach every answer, so the early stop is tested against both encodings, not only against null.
    expect([...answers].sort()).toEqual([null, 'utf-16be', 'utf-16le'].sort());
  });
});
