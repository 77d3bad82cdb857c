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
