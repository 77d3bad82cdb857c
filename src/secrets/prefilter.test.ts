import { describe, expect, test } from 'vitest';
import { buildKeywordAutomaton, FOLD } from './prefilter.js';

/** Every (end offset, keyword) the automaton reports over `text`, walked as the scanner walks it. */
function automatonHits(automaton: ReturnType<typeof buildKeywordAutomaton<string>>, text: string): string[] {
  const hits: string[] = [];
  let state = 0;
  for (let i = 0; i < text.length; i++) {
    state = automaton.delta[(state << 7) | FOLD[text.charCodeAt(i)]!]!;
    for (const output of automaton.outputs[state] ?? []) {
      for (const item of output.items) hits.push(`${i + 1}:${item}`);
    }
  }
  return hits.sort();
}

/** The same by brute force: every keyword at every offset, ASCII case-insensitively. */
function naiveHits(keywords: readonly string[], text: string): string[] {
  const lower = text.toLowerCase();
  const hits: string[] = [];
  for (const keyword of keywords) {
    for (let at = lower.indexOf(keyword); at !== -1; at = lower.indexOf(keyword, at + 1))
      hits.push(`${at + keyword.length}:${keyword}`);
  }
  return hits.sort();
}

describe('the keyword automaton', () => {
  test('finds every occurrence of overlapping keywords, case-insensitively', () => {
    const keywords = ['he', 'she', 'his', 'hers', 'ushe'];
    const automaton = buildKeywordAutomaton(keywords.map((keyword) => ({ keywords: [keyword], item: keyword })));
    const text = 'USHERS said: his hershe, Hers';
    expect(automatonHits(automaton, text)).toEqual(naiveHits(keywords, text));
  });

  test('past the first table size (thousands of states), every hit is still found', () => {
    // Deterministic pseudo-random keywords: 900 of 8 letters make more than 4096 states.
    let seed = 7;
    const letter = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return 'abcdefgh'[(seed >>> 16) % 8]!;
    };
    const keywords = [...new Set(Array.from({ length: 900 }, () => Array.from({ length: 8 }, letter).join('')))];
    const automaton = buildKeywordAutomaton(keywords.map((keyword) => ({ keywords: [keyword], item: keyword })));
    expect(automaton.delta.length / 128).toBeGreaterThan(4096);
    const text = Array.from({ length: 20_000 }, letter).join('');
    const expected = naiveHits(keywords, text);
    expect(expected.length).toBeGreaterThan(0);
    expect(automatonHits(automaton, text)).toEqual(expected);
  });
});
