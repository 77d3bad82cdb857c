import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { buildKeywordAutomaton, isAutomatonKeyword } from './prefilter.js';

/** Every `keyword@end` the automaton reports over `text`, in order. */
function automatonHits(keywords: string[], text: string): string[] {
  const automaton = buildKeywordAutomaton(keywords.map((keyword) => ({ keywords: [keyword], item: keyword })));
  const { delta, classes, shift, outputs } = automaton;
  const hits: string[] = [];
  let state = 0;
  for (let i = 0; i < text.length; i++) {
    state = delta[(state << shift) | classes[text.charCodeAt(i)]!]!;
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
        // With characters no keyword holds (each its table column 0), in both cases and outside ASCII.
        fc.array(fc.constantFrom('a', 'b', 'c', 'A', 'B', '.', '_', ' ', 'z', 'Z', '\u00e1', '\u0161'), {
          maxLength: 60,
        }),
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

describe('the keyword automaton of the built-in rules', () => {
  test('reports at each hit the keywords that end there, longest first, each with its rules in rule order', async () => {
    const { builtinRules } = await import('./rules/index.js');
    const entries = builtinRules.map((rule, index) => ({ keywords: rule.keywords, item: index }));
    const nameWords = builtinRules.flatMap((rule) => rule.nameWords ?? []);
    const { delta, classes, shift, outputs, accepting, firstAccepting } = buildKeywordAutomaton(entries, nameWords);
    // The expected lists, by comparing every keyword at every offset.
    const itemsOf = new Map<string, number[]>();
    for (const word of nameWords) itemsOf.set(word.toLowerCase(), []);
    for (const { keywords, item } of entries) {
      for (const keyword of keywords.filter(isAutomatonKeyword)) {
        const list = itemsOf.get(keyword.toLowerCase()) ?? [];
        if (!list.includes(item)) list.push(item);
        itemsOf.set(keyword.toLowerCase(), list);
      }
    }
    const names = new Set(nameWords.map((word) => word.toLowerCase()));
    // Text made of the keywords themselves, run together and cut up, in both cases: every keyword and many overlaps.
    const keywords = [...itemsOf.keys()];
    const text = keywords.map((keyword, index) => (index % 3 === 0 ? keyword.toUpperCase() : keyword)).join('_');
    const lower = text.toLowerCase();
    const summary = (list: ReadonlyArray<{ length: number; items: readonly number[]; nameWord: boolean }>) =>
      list.map(({ length, items, nameWord }) => `${length}${nameWord ? 'n' : ''}:${items.join(',')}`).join(' ');
    const expected: string[] = new Array(text.length).fill('');
    const ending: Array<Array<{ length: number; items: number[]; nameWord: boolean }>> = [];
    for (const keyword of keywords) {
      for (let at = lower.indexOf(keyword); at !== -1; at = lower.indexOf(keyword, at + 1)) {
        const end = at + keyword.length - 1;
        const list = ending[end] ?? [];
        list.push({ length: keyword.length, items: itemsOf.get(keyword)!, nameWord: names.has(keyword) });
        ending[end] = list;
      }
    }
    ending.forEach((list, end) => {
      expected[end] = summary(list.sort((a, b) => b.length - a.length));
    });
    const actual: string[] = [];
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      state = delta[(state << shift) | classes[text.charCodeAt(i)]!]!;
      actual.push(accepting[state] === 1 ? summary(outputs[state]!) : '');
    }
    expect(expected.filter((list) => list !== '').length).toBeGreaterThan(keywords.length);
    expect(actual).toEqual(expected);
    // The per-character loop tells the states where keywords end by their number alone.
    expect([...accepting].map((flag, state) => flag === 1 && state >= firstAccepting)).toEqual(
      [...accepting].map((flag) => flag === 1),
    );
    expect(accepting.indexOf(1)).toBe(firstAccepting);
    // A row is as wide as the keywords' characters need: 64 columns, half of the 128 of every ASCII character.
    expect(shift).toBe(6);
  });
});
