import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { buildKeywordAutomaton, FOLD } from './prefilter.js';

/** Every `keyword@end` the automaton reports over `text`, in order. */
function automatonHits(keywords: string[], text: string): string[] {
  const { delta, outputs } = buildKeywordAutomaton(keywords.map((keyword) => ({ keywords: [keyword], item: keyword })));
  const hits: string[] = [];
  let state = 0;
  for (let i = 0; i < text.length; i++) {
    state = delta[(state << 7) | FOLD[text.charCodeAt(i)]!]!;
    for (const output of outputs[state] ?? []) for (const item of output.items) hits.push(`${item}@${i + 1}`);
  }
  return hits.sort();
}

/** The same by comparing every keyword at every offset, ASCII case-insensitively. */
function naiveHits(keywords: string[], text: string): string[] {
  const lower = text.replace(/[A-Z]/g, (char) => char.toLowerCase());
  const hits: string[] = [];
  for (const keyword of new Set(keywords)) {
    for (let at = lower.indexOf(keyword); at !== -1; at = lower.indexOf(keyword, at + 1))
      hits.push(`${keyword}@${at + keyword.length}`);
  }
  return hits.sort();
}

describe('the keyword automaton', () => {
  test('finds every occurrence of every keyword, overlapping ones and keywords inside keywords too', () => {
    const letters = fc.constantFrom('a', 'b', 'c', '.', '_');
    const keyword = fc.array(letters, { minLength: 1, maxLength: 5 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(
        fc.array(keyword, { minLength: 1, maxLength: 12 }),
        fc.array(fc.constantFrom('a', 'b', 'c', 'A', 'B', '.', '_', ' '), { maxLength: 60 }),
        (keywords, chars) => {
          const text = chars.join('');
          expect(automatonHits(keywords, text)).toEqual(naiveHits(keywords, text));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
