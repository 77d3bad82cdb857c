import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { UnitBytes } from './unit-bytes.js';

const char = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('a', '=', ' ', '\n', '"', 'key') },
  { weight: 2, arbitrary: fc.constantFrom('é', 'ÿ', '\u0085', '\u00a0', 'ſ', '中', '\u2028', '\ufeff', '😀', '🔑') },
  { weight: 1, arbitrary: fc.integer({ min: 0x80, max: 0x10ffff }).map((point) => String.fromCodePoint(point)) },
);
const text = fc.array(char, { maxLength: 3000 }).map((chars) => chars.join(''));

describe('UTF-8 read one byte per UTF-16 unit', () => {
  test('has a unit per unit of the decoded text, ASCII where it is, and decodes any range as the text slices it', () => {
    fc.assert(
      fc.property(text, fc.array(fc.tuple(fc.nat(6000), fc.nat(6000)), { maxLength: 12 }), (value, ranges) => {
        const bytes = Buffer.from(value, 'utf8');
        const decoded = bytes.toString('utf8');
        const units = UnitBytes.of(bytes);
        // The JavaScript loop (a Node without WebAssembly) gives the same units.
        expect(UnitBytes.of(bytes, null).units).toEqual(units.units);
        expect(units.units.length).toBe(decoded.length);
        for (let at = 0; at < decoded.length; at++) expect(units.units[at]! < 0x80).toBe(decoded.charCodeAt(at) < 0x80);
        const cuts = [...ranges, [0, decoded.length] as [number, number]];
        for (const [a, b] of cuts) {
          const start = Math.min(a, b, decoded.length);
          const end = Math.min(Math.max(a, b), decoded.length);
          expect(units.decode(start, end)).toBe(decoded.slice(start, end));
          expect(units.text(start, end)).toBe(decoded.slice(start, end));
          expect(units.isAscii(start, end)).toBe(!/[^\x00-\x7f]/.test(decoded.slice(start, end)));
        }
      }),
      { numRuns: 300 },
    );
  });

  test('counts past every kept offset and ASCII block: long texts cut at every unit near a step', () => {
    const texts = [
      `${'x'.repeat(1023)}${'😀'.repeat(1500)}é`,
      `${'a'.repeat(5000)}é${'b'.repeat(4095)}😀${'c'.repeat(3000)}中${'d'.repeat(2047)}`,
      `é${'a'.repeat(2047)}${'b'.repeat(6144)}😀`,
      // Runs of each width across blocks and steps, and a pair whose low half is a step's or a block's first unit.
      `${'中'.repeat(2500)}${'é'.repeat(3000)}${'a'.repeat(1021)}😀${'😀'.repeat(1200)}${'x'.repeat(2045)}😀é`,
      `${'ab'.repeat(1500)}${'é'.repeat(2047)}😀${'a'.repeat(4093)}😀😀${'中'.repeat(700)}`,
      // ASCII runs of 32 KB and more (copied at once), ending at, before and after a run's end.
      `${'a'.repeat(40000)}é${'b'.repeat(32768)}😀${'c'.repeat(32767)}`,
      `${'中'.repeat(1000)}${'a'.repeat(2048 * 16 + 5)}é${'x'.repeat(2048 * 16 - 1)}`,
    ];
    // Written into memory reused from text to text, larger than each, as a scanning thread does.
    const into = Buffer.alloc(1 << 18, 0xff);
    for (const [value, loop] of texts.flatMap(
      (value) =>
        [
          [value, undefined],
          [value, null],
        ] as const,
    )) {
      const units = UnitBytes.of(Buffer.from(value, 'utf8'), loop, loop === undefined ? into : null);
      expect(units.units.length).toBe(value.length);
      expect(units.units.equals(UnitBytes.of(Buffer.from(value, 'utf8'), null).units)).toBe(true);
      const far = value.length > 20000 ? 1009 : 97;
      for (let at = 0; at <= value.length; at += far === 97 && (at % 1024 < 4 || at % 1024 > 1020) ? 1 : far) {
        expect(units.decode(0, at)).toBe(value.slice(0, at));
        expect(units.decode(at, value.length)).toBe(value.slice(at));
      }
    }
  });
});
