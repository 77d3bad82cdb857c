import fc from 'fast-check';
import { expect, it } from 'vitest';
import { closesXmlAttribute } from './generic-gates.js';
import { quotedValueAt } from './name-gate.js';

/** What `quotedValueAt` did with a loop over each character, to hold its searches to the same answers. */
function byLoop(text: string, separator: number): string | undefined {
  const code = text.charCodeAt(separator);
  if (code !== 58 && code !== 61) return undefined;
  let start = separator;
  while (text[start] === ':' || text[start] === '=' || text[start] === '>') start++;
  while (text[start] === ' ' || text[start] === '\t') start++;
  const quote = text.charCodeAt(start);
  if (quote !== 34 && quote !== 39) return undefined;
  const limit = Math.min(text.length, start + 202);
  for (let at = start + 1; at < limit; at++) {
    const next = text.charCodeAt(at);
    if (next === quote) return text.slice(start + 1, at);
    if (next === 10 || next === 13) return '';
  }
  return '';
}

it('quotedValueAt reads a quoted value as a loop over its characters did', () => {
  const piece = fc.oneof(
    fc.constantFrom(':', '=', '>', ' ', '\t', '"', "'", '\n', '\r', 'a', 'Z', '9', '_'),
    fc.string({ maxLength: 3 }),
    fc.constantFrom('x'.repeat(150), 'y'.repeat(199), 'z'.repeat(200), 'w'.repeat(201)),
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 12 }), fc.nat(), (pieces, at) => {
      const text = pieces.join('');
      const separator = text.length === 0 ? 0 : at % text.length;
      expect(quotedValueAt(text, separator)).toBe(byLoop(text, separator));
    }),
    { numRuns: 1500 },
  );
});

/** What `closesXmlAttribute` did to find its quote: a loop over each character. */
function quoteByLoop(text: string, after: number): number {
  const limit = Math.min(text.length, after + 40);
  let quote = after;
  for (let code = text.charCodeAt(quote); code !== 34; code = text.charCodeAt(++quote)) {
    if (quote >= limit || code === 10 || code === 13) return -1;
  }
  return quote;
}

it('closesXmlAttribute finds its quote as a loop over the characters did', () => {
  const piece = fc.oneof(
    fc.constantFrom('"', '\n', '\r', ' ', '>', '<', 'value=', 'k'),
    fc.constantFrom('x'.repeat(38), 'y'.repeat(39), 'z'.repeat(40), 'w'.repeat(80)),
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 10 }), fc.nat(), (pieces, at) => {
      const text = pieces.join('');
      const after = text.length === 0 ? 0 : at % (text.length + 1);
      const quote = quoteByLoop(text, after);
      // Past the quote both read the same characters: a blank, or a `>` before any `<` or line end.
      const expected =
        quote !== -1 &&
        (/[ \t]/.test(text[quote + 1] ?? '') || /^[^<>\r\n]{0,80}>/.test(text.slice(quote + 1, quote + 83)));
      expect(closesXmlAttribute(text, after)).toBe(expected);
    }),
    { numRuns: 1500 },
  );
});

/**
 * Texts joined from `piece`, each asked at up to 40 offsets (below `span(text.length)`), in order or not: the
 * searches the code under test remembers from one hit to the next must not change an answer.
 */
function manyOffsetsOnOneText(
  piece: fc.Arbitrary<string>,
  span: (length: number) => number,
  check: (text: string, at: number) => void,
): void {
  fc.assert(
    fc.property(
      fc.array(piece, { maxLength: 30 }),
      fc.array(fc.nat(), { maxLength: 40 }),
      fc.boolean(),
      (pieces, offsets, inOrder) => {
        const text = pieces.join('');
        const at = offsets.map((offset) => offset % span(text.length));
        if (inOrder) at.sort((a, b) => a - b);
        for (const offset of at) check(text, offset);
      },
    ),
    { numRuns: 1500 },
  );
}

it('closesXmlAttribute gives each of many hits on one text the same answer, in order or not', () => {
  const piece = fc.oneof(
    fc.constantFrom('"', '\n', '\r', ' ', '>', '<', 'value=', 'k', '"a": "b", '),
    fc.constantFrom('x'.repeat(38), 'y'.repeat(39), 'z'.repeat(40), 'w'.repeat(80)),
  );
  const expected = (text: string, after: number) => {
    const quote = quoteByLoop(text, after);
    return (
      quote !== -1 &&
      (/[ \t]/.test(text[quote + 1] ?? '') || /^[^<>\r\n]{0,80}>/.test(text.slice(quote + 1, quote + 83)))
    );
  };
  manyOffsetsOnOneText(
    piece,
    (length) => length + 1,
    (text, after) => {
      expect(closesXmlAttribute(text, after), `at ${after}`).toBe(expected(text, after));
    },
  );
});

it('closesXmlAttribute takes a quote 40 characters on, and none further', () => {
  for (const gap of [0, 1, 39, 40, 41, 42, 200]) {
    for (const after of [0, 3]) {
      const text = `${'k'.repeat(after)}${'n'.repeat(gap)}" value="x"`;
      expect(closesXmlAttribute(text, after), `gap ${gap}`).toBe(gap <= 40);
      expect(closesXmlAttribute(`${text}\n${text}`, after), `gap ${gap}, two lines`).toBe(gap <= 40);
    }
  }
});

it('quotedValueAt reads each of many separators in one text as the loop did, in order or not', () => {
  const piece = fc.oneof(
    fc.constantFrom(':', '=', ' ', '"', "'", '\n', '\r', 'a', ': "', "= '", '"a": "b", '),
    fc.constantFrom('x'.repeat(199), 'y'.repeat(200), 'z'.repeat(201), 'w'.repeat(400)),
  );
  manyOffsetsOnOneText(
    piece,
    (length) => Math.max(1, length),
    (text, separator) => {
      expect(quotedValueAt(text, separator)).toBe(byLoop(text, separator));
    },
  );
  for (const length of [199, 200, 201, 202]) {
    const text = `k: "${'v'.repeat(length)}" and k: "${'v'.repeat(length)}\n"`;
    for (const separator of [1, text.indexOf(':', 5)])
      expect(quotedValueAt(text, separator)).toBe(byLoop(text, separator));
  }
});
