import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { shapeMaskOfBytes, withoutByteRefuted } from './byte-shape-mask.js';
import { type CompiledRule, opensAt } from './compiled-rule.js';
import { GateCheck } from './name-gate.js';
import type { KeywordOutput } from './prefilter.js';
import { builtinRules } from './rules/index.js';
import { SecretScanner } from './scanner.js';
import { outputShapes, shapeMask } from './shape-masks.js';

/** The scanner's keyword automaton, as `scanView` hands it to the byte scan. */
const automaton = (new SecretScanner(builtinRules) as unknown as { automaton: SecretScanner['automaton'] }).automaton;
const outputs = [...new Set(automaton.outputs.flatMap((list) => list ?? []))] as KeywordOutput<CompiledRule>[];
const masked = outputs.filter((output) => outputShapes(output) !== null);
const byteChecked = masked.filter((output) => outputShapes(output)!.byteChecked !== 0);

/** A text read as a byte scan reads it: ASCII as itself, any other unit as a byte of 0x80 or more (`unit-bytes.ts`). */
function bytesOf(text: string): Uint8Array {
  return Uint8Array.from(text, (char) => (char.charCodeAt(0) < 128 ? char.charCodeAt(0) : 0x82));
}

/** The tile a byte scan cuts for a hit ending at `end`: its line, with the line feed after it. */
function tileOf(text: string, end: number): { text: string; start: number } {
  const start = text.lastIndexOf('\n', end - 1) + 1;
  const lineFeed = text.indexOf('\n', end);
  return { text: text.slice(start, lineFeed === -1 ? text.length : lineFeed + 1), start };
}

const chars = fc.constantFrom(...'aZ7_.-:=>"\'\\ \t\n\r],?!<é$x1`s'.split(''), 'key', 'token', 'process.env.');
const around = fc.array(chars, { maxLength: 8 }).map((parts) => parts.join(''));
const longName = fc.integer({ min: 0, max: 90 }).map((length) => 'k'.repeat(length));

describe('shape masks read from bytes', () => {
  test('give the bits the tile gives', () => {
    fc.assert(
      fc.property(fc.constantFrom(...masked), around, longName, around, (output, before, name, after) => {
        const text = `${before}secret${name}${after}`;
        const end = before.length + 'secret'.length;
        const tile = tileOf(text, end);
        const inTile = end - tile.start;
        const gates = new GateCheck(tile.text);
        const shapes = outputShapes(output)!;
        const expected = shapeMask(shapes, tile.text, inTile, gates.nameEnd(inTile), gates.separatorAfter(inTile));
        expect(shapeMaskOfBytes(shapes, bytesOf(text), end)).toBe(expected);
      }),
      { numRuns: 4000 },
    );
  });

  test('clear only the bits of rules that open no window on the tile', () => {
    expect(byteChecked.length).toBeGreaterThan(0);
    let cleared = 0;
    fc.assert(
      fc.property(fc.constantFrom(...byteChecked), around, around, (output, before, after) => {
        const keyword = output.length === 3 ? 'key' : output.length === 5 ? 'token' : 'x'.repeat(output.length);
        const text = `${before}${keyword}${after}`;
        const end = before.length + keyword.length;
        const tile = tileOf(text, end);
        const inTile = end - tile.start;
        const kept = withoutByteRefuted(outputShapes(output)!, -1, bytesOf(text), end);
        for (const [index, item] of output.items.entries()) {
          if ((kept & (1 << index)) !== 0) continue;
          cleared++;
          const opens = opensAt(item, tile.text, inTile, new GateCheck(tile.text));
          expect(opens, `${item.rule.id} in ${JSON.stringify(text)}`).toBe(false);
        }
      }),
      { numRuns: 4000 },
    );
    expect(cleared).toBeGreaterThan(1000);
  });
});
