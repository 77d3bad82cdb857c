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

describe('the keyword automaton, large', () => {
  test('with thousands of states (more than 65,535 table rows need 32-bit entries), every hit is still found', () => {
    // Deterministic pseudo-random keywords: 900 of 8 letters make more than 4096 states.
    let seed = 7;
    const letter = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return 'abcdefgh'[(seed >>> 16) % 8]!;
    };
    const keywords = [...new Set(Array.from({ length: 900 }, () => Array.from({ length: 8 }, letter).join('')))];
    const text = Array.from({ length: 20_000 }, letter).join('');
    const expected = naiveHits(keywords, text);
    expect(expected.length).toBeGreaterThan(0);
    expect(automatonHits(keywords, text)).toEqual(expected);
  });
});
