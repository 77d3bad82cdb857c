import { isAscii } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { Utf8ByteView } from './byte-view.js';
import { sourceMapPartsOfView } from './source-map.js';
import { sourceMapPartsOfBytes } from './source-map-bytes.js';

/** A character of a JSON string as a map spells it: raw (ASCII, non-ASCII), or escaped as ASCII... */
const plainPiece = fc.constantFrom(
  'a',
  // Runs long enough to be read four bytes at a time, at every offset.
  'abc',
  'abcdefg',
  ' ',
  '\u00e9',
  '\u0085',
  '\u20ac',
  '\u{1f511}',
  '\u007f',
  '\\n',
  '\\t',
  '\\/',
  '\\b',
  '\\f',
  '\\r',
  '\\"',
  '\\\\',
  '\\u0041',
  '\\u000a',
  '\\u007F',
);
/** …or what JSON refuses in a string, or an escape past ASCII. */
const oddPiece = fc.constantFrom(
  '\t',
  '\n',
  '\u0001',
  '\\u00e9',
  '\\u20ac',
  '\\ud83d\\udd11',
  '\\U0041',
  '\\x41',
  '\\u00',
);
const stringPiece = fc.oneof({ arbitrary: plainPiece, weight: 20 }, { arbitrary: oddPiece, weight: 1 });
const jsonString = fc.array(stringPiece, { maxLength: 8 }).map((pieces) => `"${pieces.join('')}"`);
const space = fc.constantFrom('', ' ', '\n', '\r\n\t', '\u00a0', '\f');
/** Any other value a map may hold: numbers, literals and containers, valid and not. */
const other = fc.oneof(
  jsonString,
  fc.constantFrom('3', '-0', '0.5', '1e-9', '2E+3', '01', '1.', '-', '.5', '1e', 'true', 'false', 'null', 'nul'),
  fc.constantFrom('[]', '{}', '[1,[2,{"a":[null]}]]', '{"a":{"b":"c"}}', '[1,]', '{"a":1,}', '{"a"}', '[1 2]'),
);
const stringsOrNulls = fc
  .array(fc.oneof({ arbitrary: jsonString, weight: 6 }, fc.constant('null'), fc.constant('7')), { maxLength: 3 })
  .map((items) => `[${items.join(',')}]`);
const key = fc.oneof(
  { arbitrary: fc.constantFrom('"names"', '"file"', '"x_extra"'), weight: 6 },
  {
    arbitrary: fc.constantFrom('"version"', '"mappings"', '"sources"', '"sourcesContent"', '"mapping\\u0073"'),
    weight: 1,
  },
);
const entry = fc.tuple(key, space, fc.oneof(other, stringsOrNulls, fc.constantFrom('3', '3.0', '"AAAA"')));
/** A map: the entries of a valid one in any order beside random ones, maybe broken by a character dropped or put in. */
const mapText = fc
  .tuple(
    fc.shuffledSubarray(['"version":3', '"mappings":"AA;B"'], { minLength: 2 }),
    fc.tuple(fc.constant('"sources"'), space, stringsOrNulls),
    fc.tuple(fc.constant('"sourcesContent"'), space, stringsOrNulls),
    fc.array(entry, { maxLength: 2 }),
    space,
    fc.option(fc.tuple(fc.nat(), fc.constantFrom('', '"', '}', ',', '\\', '\u0001', ' ')), { freq: 3 }),
  )
  .map(([valid, sources, contents, random, around, edit]) => {
    const entries = [
      ...valid,
      ...[sources, contents, ...random].map(([name, gap, value]) => `${name}${gap}:${gap}${value}`),
    ];
    const text = `${around}{${entries.join(`,${around}`)}}${around}`;
    if (edit === null) return text;
    const at = edit[0] % (text.length + 1);
    return edit[1] === '' ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + edit[1] + text.slice(at);
  });

/** `sourceMapPartsOfView(…, true)`'s parts with each as its bytes, as the scan reads them. */
function partsOfView(path: string, bytes: Buffer) {
  const parts = sourceMapPartsOfView(path, new Utf8ByteView(bytes, isAscii(bytes)), true);
  return parts?.map(({ path, text, utf8Bytes }) => ({ path, bytes: utf8Bytes ? Buffer.from(text, 'latin1') : text }));
}

describe('source map parts read from the bytes', () => {
  test('are the parse of the map, whenever they are given (and they are for most valid maps)', () => {
    let answered = 0;
    let kept = 0;
    fc.assert(
      fc.property(mapText, fc.nat(7), (text, offset) => {
        // At any offset in its memory: the walk reads four bytes at a time.
        const bytes = Buffer.concat([Buffer.alloc(offset), Buffer.from(text, 'utf8')]).subarray(offset);
        const parts = sourceMapPartsOfBytes('a.js.map', bytes);
        if (parts === undefined) return;
        answered++;
        kept += parts.length;
        const copied = parts.map(({ path, bytes }) => ({ path, bytes: Buffer.from(bytes) }));
        expect(copied).toEqual(partsOfView('a.js.map', bytes));
      }),
      { numRuns: 4000 },
    );
    // The generator reaches both paths: over 40 seeds, 150-197 maps answered and 94-155 parts kept (a floor at 100
    // failed one seed in twenty), so each floor sits well below what any seed gives.
    expect(answered).toBeGreaterThan(100);
    expect(kept).toBeGreaterThan(50);
  });

  test('unescape ASCII escapes, keep raw UTF-8, name sources by index, and are not sure of other maps', () => {
    const map = (contents: string, rest = '"version":3,"mappings":"A"') =>
      Buffer.from(`{${rest},"sources":["caf\u00e9.ts",null],"sourcesContent":[${contents}]}`);
    const parts = sourceMapPartsOfBytes('m.js.map', map('"\u00e9\\n\\u0041\\"", "x", "y", ""'));
    expect(parts?.map(({ path, bytes }) => [path, bytes.toString('utf8')])).toEqual([
      ['m.js.map!caf\u00e9.ts', '\u00e9\nA"'],
      ['m.js.map!source-1', 'x'],
      ['m.js.map!source-2', 'y'],
    ]);
    for (const unsure of [
      map('"\\u00e9"'),
      map('"a"', '"version":3.0,"mappings":"A"'),
      map('"a"', '"version":3,"mappings":"A","version":3'),
      map('"a"', '"version":3'),
      map('"a\nb"'),
      map('"a"', '"version":3,"mappings":"A",'),
      Buffer.from('[]'),
    ])
      expect(sourceMapPartsOfBytes('m.js.map', unsure)).toBeUndefined();
  });
});
