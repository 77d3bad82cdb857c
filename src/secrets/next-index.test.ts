import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { forgetNextIndexes, NextIndex } from './next-index.js';

describe('NextIndex', () => {
  test('answers as indexOf over texts in turn, forgotten between texts, in any order of offsets', () => {
    const text = fc.stringMatching(/^[ab"\n]{0,24}$/);
    const step = fc.record({ text: fc.integer({ min: 0, max: 3 }), from: fc.nat(30), forget: fc.boolean() });
    fc.assert(
      fc.property(fc.array(text, { minLength: 4, maxLength: 4 }), fc.array(step, { maxLength: 40 }), (texts, steps) => {
        const quotes = new NextIndex('"');
        const lineFeeds = new NextIndex('\n');
        forgetNextIndexes();
        let current = -1;
        let from = 0;
        for (const each of steps) {
          // Within a text offsets only grow (keyword hits come in order); a new text is forgotten first.
          if (each.forget || current === -1) {
            forgetNextIndexes();
            // A copy, not the same string: equal texts in turn must not share answers by reference.
            current = each.text;
            from = 0;
          }
          const t = texts[current]!.split('').join('');
          from = Math.max(from, each.from);
          expect(quotes.next(t, from)).toBe(t.indexOf('"', from));
          if (each.from % 2 === 0) expect(lineFeeds.next(t, from)).toBe(t.indexOf('\n', from));
        }
      }),
    );
  });

  test('a search not asked since the last text is not reset again, one asked is', () => {
    const index = new NextIndex('x');
    forgetNextIndexes();
    expect(index.next('ax', 0)).toBe(1);
    forgetNextIndexes();
    // The same offsets in another text: answered from that text, not from the one before.
    expect(index.next('aax', 0)).toBe(2);
    forgetNextIndexes();
    forgetNextIndexes();
    expect(index.next('x', 0)).toBe(0);
  });
});
