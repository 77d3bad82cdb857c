import fc from 'fast-check';
import { expect, it } from 'vitest';
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
    { numRuns: 3000 },
  );
});
