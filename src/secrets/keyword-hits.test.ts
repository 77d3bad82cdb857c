import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { KeywordHits } from './keyword-hits.js';
import { buildKeywordAutomaton } from './prefilter.js';

/** Every `keyword@end` found by `KeywordHits` over `text`, the pass started again at each of `cuts`. */
function passHits(keywords: string[], text: string, cuts: number[] = []): string[] {
  const automaton = buildKeywordAutomaton(keywords.map((keyword) => ({ keywords: [keyword], item: keyword })));
  const found = new KeywordHits();
  const hits: string[] = [];
  let state = 0;
  const ends = [...new Set(cuts.filter((cut) => cut > 0 && cut < text.length)), text.length].sort((a, b) => a - b);
  let from = 0;
  for (const until of ends) {
    for (let next = from; next < until; next = found.at) {
      found.find(automaton, automaton.accepting, text, next, until, state);
      state = found.state;
      for (let hit = 0; hit < found.count; hit++) {
        for (const output of automaton.outputs[found.states[hit]!]!)
          for (const item of output.items) hits.push(`${item}@${found.ends[hit]! + 1}`);
      }
    }
    from = until;
  }
  return hits.sort();
}

function naiveHits(keywords: string[], text: string): string[] {
  const lower = text.toLowerCase();
  const hits: string[] = [];
  for (const keyword of new Set(keywords)) {
    for (let at = lower.indexOf(keyword); at !== -1; at = lower.indexOf(keyword, at + 1))
      hits.push(`${keyword}@${at + keyword.length}`);
  }
  return hits.sort();
}

describe('the keyword pass', () => {
  test('finds every hit in order, wherever the text is cut and however many hits it holds', () => {
    const keyword = fc.array(fc.constantFrom('a', 'b', '_'), { minLength: 1, maxLength: 4 }).map((c) => c.join(''));
    fc.assert(
      fc.property(
        fc.array(keyword, { minLength: 1, maxLength: 6 }),
        fc.array(fc.constantFrom('a', 'b', 'A', '_', ' '), { maxLength: 80 }),
        fc.array(fc.nat(80), { maxLength: 4 }),
        (keywords, chars, cuts) => {
          const text = chars.join('');
          expect(passHits(keywords, text, cuts)).toEqual(naiveHits(keywords, text));
        },
      ),
    );
  });

  test('goes on past a full record of hits (keyword-dense text)', () => {
    const text = 'key='.repeat(5000);
    const hits = passHits(['key'], text);
    expect(hits).toHaveLength(5000);
    expect(hits).toEqual(naiveHits(['key'], text));
  });
});
