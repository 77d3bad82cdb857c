import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { Utf8ByteView } from './byte-view.js';
import { sourceMapParts, sourceMapPartsOf, sourceMapPartsOfView } from './source-map.js';

/** What `sourceMapParts` gave when it parsed every text whole. */
function parsedWhole(path: string, text: string) {
  if (!text.trimStart().startsWith('{')) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  return sourceMapPartsOf(path, parsed);
}

const mappingsText = fc
  .array(fc.constantFrom('A', 'g', '+', '/', ';', ',', '"', '\\', '\n', '\u0001', '\u00e9', '\u{1f511}'), {
    maxLength: 12,
  })
  .map((chars) => chars.join(''));
const value = fc.oneof(
  fc.constantFrom(3, 2, '3', null, true),
  mappingsText,
  fc.array(fc.oneof(mappingsText, fc.constant(null)), { maxLength: 3 }),
  fc.constant({ mappings: 'AAAA' }),
  fc.constant('const s = "\\"mappings\\": \\"x\\""; // "mappings": "AAAA"'),
);
/** A key as the text writes it: plain, escaped, or only ending in `mappings`. */
const key = fc.constantFrom(
  '"version"',
  '"sources"',
  '"sourcesContent"',
  '"names"',
  '"mappings"',
  '"mapping\\u0073"',
  '"x\\"mappings"',
  '"xmappings"',
  '"a"',
);
const space = fc.constantFrom('', ' ', '\n\t', '\u00a0');
/** The entries of a valid map, some of which each text takes (in any order) beside random ones. */
const validEntries: Array<[string, string, string, unknown]> = [
  ['"version"', '', '', 3],
  ['"mappings"', '', '', 'AAAA;CAAC'],
  ['"sources"', '', ' ', ['a.ts', null]],
  ['"sourcesContent"', '', '', ['let a = 1;\n', null]],
];
/** A JSON text (duplicate keys allowed), then maybe broken: a character dropped or put in. */
const mapText = fc
  .tuple(
    fc.shuffledSubarray(validEntries),
    fc.array(fc.tuple(key, space, space, value), { maxLength: 4 }),
    fc.option(fc.tuple(fc.nat(), fc.constantFrom('', '"', '}', ',', '\\', 'x', ' '))),
  )
  .map(([valid, random, edit]) => {
    const entries = [...valid, ...random].sort((a, b) => JSON.stringify(a[3]).length - JSON.stringify(b[3]).length);
    const text = `{${entries.map(([name, before, after, item]) => `${name}${before}:${after}${JSON.stringify(item)}`).join(',')}}`;
    if (edit === null) return text;
    const at = edit[0] % (text.length + 1);
    return edit[1] === '' ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + edit[1] + text.slice(at);
  });

describe('source map parts', () => {
  test('are those of the map parsed whole, for any text: keys repeated, escaped, nested, broken JSON', () => {
    fc.assert(
      fc.property(mapText, (text) => {
        expect(sourceMapParts('a.js.map', text)).toEqual(parsedWhole('a.js.map', text));
      }),
      { numRuns: 3000 },
    );
  });

  test('a map whose mappings come first, last, or twice gives its sources', () => {
    const sources = '"sources":["a.ts","b.ts"],"sourcesContent":["let a = 1;\\n",null]';
    for (const text of [
      `{"version":3,"mappings":"AAAA;CAAC",${sources}}`,
      `{"version":3,${sources},"mappings" :\n "AAAA"}`,
      `{"version":3,"mappings":"AAAA",${sources},"mappings":"BBBB"}`,
      `{"version":3,"mappings":"AA\\u0041A",${sources}}`,
    ]) {
      expect(sourceMapParts('a.js.map', text)).toEqual([{ path: 'a.js.map!a.ts', text: 'let a = 1;\n' }]);
    }
    expect(sourceMapParts('a.js.map', `{"version":3,"mappings":"AAAA",${sources},"mappings":7}`)).toBeNull();
    expect(sourceMapParts('a.js.map', `{"version":3,"mappings":"AAAA\u0001",${sources}}`)).toBeNull();
  });
});

/** A character of a JSON string and how the text spells it: as itself, or escaped. */
const stringPiece = fc.constantFrom(
  'a',
  ' ',
  '\u00e9',
  '\u00ff',
  '\u0085',
  '\u20ac',
  '\u{1f511}',
  '\\u00e9',
  '\\u20ac',
  '\\ud83d\\udd11',
  '\\\\u00e9',
  '\\n',
  '\\"',
  '\\\\',
  '\\u0041',
  '\\u00E9',
  '\\u0100',
  '\\u01e9',
  '\\\\\\u00e9',
  // No such escape in JSON: the map is refused both ways, never parsed here as its lower-case twin.
  '\\U00e9',
  '\\U01e9',
  '\\u01E9',
);
const jsonString = fc.array(stringPiece, { maxLength: 10 }).map((pieces) => `"${pieces.join('')}"`);
/** A string of raw bytes and ASCII escapes alone: what a map's source kept as its bytes is made of. */
const rawString = fc
  .array(fc.constantFrom('a', ' ', '\u00e9', '\u0085', '\u20ac', '\u{1f511}', '\\n', '\\"', '\\\\', '\\u0041'), {
    maxLength: 10,
  })
  .map((pieces) => `"${pieces.join('')}"`);
const stringOrNull = fc.oneof(jsonString, rawString, fc.constant('null'));
/** Something a non-ASCII map may hold outside its strings: nothing, blanks, or bytes JSON refuses there. */
const outside = fc.constantFrom('', ' ', '\n', '\u00a0', '\ufeff', '\u00e9', '\u2028');
/** A source map whose names and sources hold non-ASCII text written as bytes or as escapes, maybe broken. */
const nonAsciiMap = fc
  .tuple(
    fc.array(stringOrNull, { maxLength: 3 }),
    fc.array(stringOrNull, { maxLength: 3 }),
    outside,
    outside,
    fc.constantFrom('3', '2', '"3"'),
    fc.option(fc.tuple(fc.nat(), fc.constantFrom('', '"', '}', '\u00e9', '\\'))),
  )
  .map(([sources, contents, before, inside, version, edit]) => {
    const text = `${before}{"version":${version},${inside}"mappings":"AAAA","sources":[${sources.join(',')}],"sourcesContent":[${contents.join(',')}],"names":["\u00e9"]}`;
    if (edit === null) return text;
    const at = edit[0] % (text.length + 1);
    return edit[1] === '' ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + edit[1] + text.slice(at);
  });

describe('source map parts from the bytes', () => {
  test('are those of the decoded text parsed, for maps with raw and escaped non-ASCII text', () => {
    let answered = 0;
    let keptBytes = 0;
    const utf8 = (text: string) => Buffer.from(text, 'latin1').toString('utf8');
    fc.assert(
      fc.property(nonAsciiMap, (text) => {
        const view = new Utf8ByteView(Buffer.from(text, 'utf8'));
        const parts = sourceMapPartsOfView('a.js.map', view);
        if (parts === undefined) {
          expect(view.text).toMatch(/(?<!\\)(?:\\\\)*\\u01[89a-fA-F]/);
          return;
        }
        answered++;
        expect(parts).toEqual(sourceMapParts('a.js.map', view.utf8()));
        // Kept as bytes, each source is the same text once its bytes are decoded.
        const kept = sourceMapPartsOfView('a.js.map', view, true) ?? null;
        const decoded = kept?.map(({ path, text, utf8Bytes }) => ({ path, text: utf8Bytes ? utf8(text) : text }));
        expect(decoded ?? null).toEqual(parts);
        keptBytes += (kept ?? []).filter((part) => part.utf8Bytes && /[^\x00-\x7f]/.test(part.text)).length;
      }),
      { numRuns: 3000 },
    );
    expect(answered).toBeGreaterThan(1000);
    expect(keptBytes).toBeGreaterThan(5);
  });

  test('decode the sources it keeps, Latin-1 escapes too, and leave a map with a \\u0180-\\u01ff escape to the decoded text', () => {
    const map = (content: string) =>
      new Utf8ByteView(
        Buffer.from(`{"version":3,"mappings":"A","sources":["caf\u00e9.ts"],"sourcesContent":[${content}]}`),
      );
    expect(sourceMapPartsOfView('m.js.map', map('"const s = \'\u{1f511} \\u20ac\';"'))).toEqual([
      { path: 'm.js.map!caf\u00e9.ts', text: "const s = '\u{1f511} \u20ac';" },
    ]);
    expect(sourceMapPartsOfView('m.js.map', map('"\\u00e9 \\\\u00e9 \u00e9 \\u0100"'))).toEqual([
      { path: 'm.js.map!caf\u00e9.ts', text: '\u00e9 \\u00e9 \u00e9 \u0100' },
    ]);
    expect(sourceMapPartsOfView('m.js.map', map('"\\u01e9"'))).toBeUndefined();
    expect(sourceMapPartsOfView('m.js.map', map('"\\\\u01e9 \\u00e9"'))).toEqual([
      { path: 'm.js.map!caf\u00e9.ts', text: '\\u01e9 \u00e9' },
    ]);
    expect(sourceMapPartsOfView('m.js', map('"x"'))).toBeNull();
    // Kept as bytes: the raw UTF-8 and ASCII escapes; a source with an escape above U+007F is decoded.
    expect(sourceMapPartsOfView('m.js.map', map('"\u00e9\\n\\u0041", "\\u00e9 \u00e9", "\\u20ac"'), true)).toEqual([
      { path: 'm.js.map!caf\u00e9.ts', text: '\u00c3\u00a9\nA', utf8Bytes: true },
      { path: 'm.js.map!source-1', text: '\u00e9 \u00e9' },
      { path: 'm.js.map!source-2', text: '\u20ac' },
    ]);
  });
});

describe('sourceMapPartsOf without zod', () => {
  // The zod schema the hand-written check replaced (the scan worker loads no zod): both must accept the same values.
  const zodSchema = z.object({
    version: z.literal(3),
    mappings: z.string(),
    sources: z.array(z.string().nullable()).default([]),
    sourcesContent: z.array(z.string().nullable()).optional(),
  });
  function partsByZod(path: string, parsed: unknown) {
    const map = zodSchema.safeParse(parsed);
    if (!map.success) return null;
    const { sources, sourcesContent = [] } = map.data;
    return sourcesContent.flatMap((content, index) =>
      typeof content === 'string' && content.length > 0
        ? [{ path: `${path}!${sources[index] ?? `source-${index}`}`, text: content }]
        : [],
    );
  }
  const fieldValue = fc.oneof(
    fc.constant(undefined),
    fc.constant(null),
    fc.constantFrom(3, 2, '3', ''),
    fc.string({ maxLength: 4 }),
    fc.array(fc.oneof(fc.string({ maxLength: 4 }), fc.constant(null), fc.integer()), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 2 }), fc.string({ maxLength: 2 }), { maxKeys: 2 }),
  );
  const mapLike = fc.oneof(
    fc.record(
      { version: fieldValue, mappings: fieldValue, sources: fieldValue, sourcesContent: fieldValue },
      { requiredKeys: [] },
    ),
    fc.jsonValue(),
  );

  test('accepts and splits exactly what the zod schema did', () => {
    fc.assert(
      fc.property(mapLike, (value) => {
        // Through JSON, as a map on disk is: `undefined` fields are absent, as they are in a parsed file.
        const parsed: unknown = JSON.parse(JSON.stringify(value) ?? 'null');
        expect(sourceMapPartsOf('a.js.map', parsed)).toEqual(partsByZod('a.js.map', parsed));
      }),
      { numRuns: 2000 },
    );
  });

  test('a map with every field, one without sources, and wrong types', () => {
    const full = { version: 3, mappings: 'AA', sources: ['a.ts', null], sourcesContent: ['x', 'y'] };
    expect(sourceMapPartsOf('m.map', full)).toEqual([
      { path: 'm.map!a.ts', text: 'x' },
      { path: 'm.map!source-1', text: 'y' },
    ]);
    expect(sourceMapPartsOf('m.map', { version: 3, mappings: '', sourcesContent: ['z'] })).toEqual([
      { path: 'm.map!source-0', text: 'z' },
    ]);
    expect(sourceMapPartsOf('m.map', { ...full, sources: null })).toBeNull();
    expect(sourceMapPartsOf('m.map', { ...full, version: '3' })).toBeNull();
    expect(sourceMapPartsOf('m.map', [full])).toBeNull();
  });
});
