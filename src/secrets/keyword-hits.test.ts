import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { conditionsOf, FIRST_CONDITION, hitContext } from './hit-context.js';
import { KeywordHits } from './keyword-hits.js';
import { acceptingOf, buildKeywordAutomaton } from './prefilter.js';

/**
 * Every `keyword@end` found by `KeywordHits` over `text`, the pass started again at each of `cuts`; keywords in
 * `muted` are left out of the accepting states the pass is given, as the scan leaves out those of path-exempt rules;
 * keywords in `bound` are built as path-bound ones (numbered among the states where nothing ends).
 */
function passHits(keywords: string[], text: string, cuts: number[] = [], muted: string[] = [], bound: string[] = []) {
  const automaton = buildKeywordAutomaton(
    keywords.map((keyword) => ({ keywords: [keyword], item: keyword })),
    [],
    (item) => bound.includes(item),
  );
  const states = automaton.accepting.slice();
  automaton.outputs.forEach((list, state) => {
    if (list?.every((output) => output.items.every((item) => muted.includes(item)))) states[state] = 0;
  });
  const accepting = acceptingOf(states);
  const found = new KeywordHits();
  const hits: string[] = [];
  let state = 0;
  const ends = [...new Set(cuts.filter((cut) => cut > 0 && cut < text.length)), text.length].sort((a, b) => a - b);
  let from = 0;
  for (const until of ends) {
    for (let next = from; next < until; next = found.at) {
      found.find(automaton, accepting, text, next, until, state);
      state = found.state;
      for (let hit = 0; hit < found.count; hit++) {
        for (const output of automaton.outputs[found.states[hit]!]!)
          for (const item of output.items) if (!muted.includes(item)) hits.push(`${item}@${found.ends[hit]! + 1}`);
      }
    }
    from = until;
  }
  return hits.sort();
}

/** The same by comparing every keyword at every offset, ASCII case-insensitively (`K`, the Kelvin sign, is no `k`). */
function naiveHits(keywords: string[], text: string): string[] {
  const lower = text.replace(/[A-Z]/g, (char) => char.toLowerCase());
  const hits: string[] = [];
  for (const keyword of new Set(keywords)) {
    for (let at = lower.indexOf(keyword); at !== -1; at = lower.indexOf(keyword, at + 1))
      hits.push(`${keyword}@${at + keyword.length}`);
  }
  return hits.sort();
}

/** Every hit's state and end over bytes, in the order recorded, the pass restarted at each cut and after each full record. */
function ordered(
  found: KeywordHits,
  automaton: ReturnType<typeof buildKeywordAutomaton>,
  bytes: Uint8Array,
  cuts: number[],
  accepting = acceptingOf(automaton.accepting),
): [number[], number] {
  const hits: number[] = [];
  let state = 0;
  let from = 0;
  for (const until of [...new Set(cuts.filter((cut) => cut > 0 && cut < bytes.length)), bytes.length].sort(
    (a, b) => a - b,
  )) {
    for (let next = from; next < until; next = found.at) {
      found.findBytes(automaton, accepting, bytes, next, until, state);
      state = found.state;
      for (let hit = 0; hit < found.count; hit++) hits.push(found.states[hit]!, found.ends[hit]!);
    }
    from = until;
  }
  return [hits, state];
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

  test('finds what a naive search finds in any text: ASCII, Latin-1, two-byte and astral characters, cut anywhere', () => {
    // Non-ASCII characters whose low bits, or whose Unicode case mappings, are those of ASCII keyword characters.
    const foreign = [
      '\u00e1',
      '\u00c1',
      '\u00ff',
      '\u00a0',
      '\u0161',
      '\u017f',
      '\u212a',
      '\u0430',
      '\u20ac',
      '\u{1f511}',
      '\ud83d',
    ];
    const keywordChar = fc.constantFrom('a', 'k', 's', '_', ':', '-', '"', '=', ' ');
    const keyword = fc.array(keywordChar, { minLength: 1, maxLength: 6 }).map((chars) => chars.join(''));
    const textChar = fc.oneof(
      keywordChar,
      fc.constantFrom('A', 'K', 'S', '\n', ...foreign),
      fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)),
      fc.integer({ min: 0x10000, max: 0x10ffff }).map((point) => String.fromCodePoint(point)),
    );
    fc.assert(
      fc.property(
        fc.uniqueArray(keyword, { minLength: 1, maxLength: 10 }),
        fc.array(textChar, { maxLength: 200 }),
        fc.array(fc.nat(200), { maxLength: 4 }),
        fc.array(fc.nat(9), { maxLength: 3 }),
        fc.array(fc.nat(9), { maxLength: 4 }),
        (keywords, chars, cuts, mutedAt, boundAt) => {
          const text = chars.join('');
          const muted = mutedAt.map((index) => keywords[index % keywords.length]!);
          const bound = boundAt.map((index) => keywords[index % keywords.length]!);
          const kept = keywords.filter((word) => !muted.includes(word));
          expect(passHits(keywords, text, cuts, muted, bound)).toEqual(naiveHits(kept, text));
        },
      ),
      { numRuns: 400 },
    );
  });

  test('over bytes in streams per segment (two in JavaScript, four in WebAssembly), gives the hits of one stream, in the same order, wherever it is cut', () => {
    const keyword = fc
      .array(fc.constantFrom('a', 'b', '_', '.'), { minLength: 1, maxLength: 5 })
      .map((c) => c.join(''));
    fc.assert(
      fc.property(
        fc.uniqueArray(keyword, { minLength: 1, maxLength: 8 }),
        fc.array(fc.constantFrom('a', 'b', 'A', '_', '.', ' ', '\u00e9'), { maxLength: 300 }),
        fc.array(fc.nat(300), { maxLength: 4 }),
        fc.integer({ min: 1, max: 12 }),
        (keywords, chars, cuts, part) => {
          const automaton = buildKeywordAutomaton(keywords.map((word) => ({ keywords: [word], item: word })));
          const bytes = Buffer.from(chars.join(''), 'utf8');
          // Parts of 2048 bytes never split texts this short: the plain one-stream loop, in JavaScript.
          const one = ordered(new KeywordHits(2048, null), automaton, bytes, cuts);
          expect(ordered(new KeywordHits(part, null), automaton, bytes, cuts)).toEqual(one);
          expect(ordered(new KeywordHits(2048, { quarter: part, after: 0 }), automaton, bytes, cuts)).toEqual(one);
        },
      ),
      { numRuns: 500 },
    );
    // Every byte a hit: the record fills in the middle of the segments and the pass goes on.
    const dots = buildKeywordAutomaton([{ keywords: ['.'], item: '.' }]);
    const bytes = Buffer.from('.'.repeat(40_000));
    for (const found of [new KeywordHits(2048, { quarter: 1024, after: 0 }), new KeywordHits(2048, null)]) {
      const [hits] = ordered(found, dots, bytes, []);
      expect((hits as number[]).filter((_, index) => index % 2 === 1)).toEqual([...Array(40_000).keys()]);
    }
  });

  test('the WebAssembly loop is made at the first call on a text with that many bytes still ahead', () => {
    const dots = buildKeywordAutomaton([{ keywords: ['.'], item: '.' }]);
    const accepting = acceptingOf(dots.accepting);
    const bytes = Buffer.from(`${'x'.repeat(49_900)}.`.repeat(2));
    const found = new KeywordHits(2048, { quarter: 1024, after: 50_000 });
    const own = found.states;
    // 99,802 bytes ahead of the first call, 39,802 of the second's: made for the first, in JavaScript for the second.
    found.findBytes(dots, accepting, bytes, 0, 100, 0);
    expect(found.states).not.toBe(own);
    const short = new KeywordHits(2048, { quarter: 1024, after: 50_000 });
    const shortOwn = short.states;
    short.findBytes(dots, accepting, bytes, 60_000, bytes.length, 0);
    expect(short.states).toBe(shortOwn);
    expect([...short.ends.subarray(0, short.count)]).toEqual([99_801]);
  });

  test('the WebAssembly loop is made at the first call when the bytes expected pay for it, else as before', () => {
    const dots = buildKeywordAutomaton([{ keywords: ['.'], item: '.' }]);
    const accepting = acceptingOf(dots.accepting);
    const bytes = Buffer.from(`${'x'.repeat(99)}.`);
    const expecting = new KeywordHits(2048, { quarter: 1024, after: 50_000 });
    const own = expecting.states;
    expecting.expectBytes(50_000);
    expecting.findBytes(dots, accepting, bytes, 0, bytes.length, 0);
    expect(expecting.states).not.toBe(own);
    expect([...expecting.states.subarray(0, expecting.count)].length).toBe(1);
    expect([...expecting.ends.subarray(0, expecting.count)]).toEqual([99]);
    // Fewer bytes expected than the loop needs: 100 bytes read in JavaScript, as without the call.
    const few = new KeywordHits(2048, { quarter: 1024, after: 50_000 });
    const fewOwn = few.states;
    few.expectBytes(40_000);
    few.findBytes(dots, accepting, bytes, 0, bytes.length, 0);
    expect(few.states).toBe(fewOwn);
    expect([...few.ends.subarray(0, few.count)]).toEqual([99]);
  });

  test('the WebAssembly loop is made once the pass has read its bytes, not once it was asked for them', () => {
    // 40,000 one-byte hits fill the record five times: each call is asked for the rest of the text, 120,000 bytes
    // in all, but reads 40,000.
    const dots = buildKeywordAutomaton([{ keywords: ['.'], item: '.' }]);
    const accepting = acceptingOf(dots.accepting);
    const bytes = Buffer.from('.'.repeat(40_000));
    const found = new KeywordHits(2048, { quarter: 1024, after: 50_000 });
    const own = found.states;
    for (let from = 0; from < bytes.length; from = found.at) {
      found.findBytes(dots, accepting, bytes, from, bytes.length, found.state);
      expect(found.states).toBe(own);
    }
    // A second pass reads past 50,000 bytes in all; the next call runs in WebAssembly, whose record is its memory.
    for (let from = 0; from < bytes.length; from = found.at) {
      found.findBytes(dots, accepting, bytes, from, bytes.length, found.state);
    }
    found.findBytes(dots, accepting, bytes, 0, 100, 0);
    expect(found.states).not.toBe(own);
    expect(found.count).toBe(100);
  });

  test('in WebAssembly, gives the hits of the JavaScript loop: texts longer than a window, path-bound and muted keywords, hits with conditions, automata taking turns', () => {
    const keyword = fc
      .array(fc.constantFrom('a', 'b', 'c', '_', '.', '-'), { minLength: 1, maxLength: 6 })
      .map((c) => c.join(''));
    const wasm = new KeywordHits(2048, { quarter: 1024, after: 0 });
    const context = fc.constantFrom('a-c', '_.-', ' ', 'a-z_', 'x-z ', ' -~');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.uniqueArray(keyword, { minLength: 1, maxLength: 40 }), fc.nat(), fc.nat()), {
          minLength: 1,
          maxLength: 3,
        }),
        fc.array(fc.constantFrom('a', 'b', 'c', '_', '.', '-', ' ', 'x', '\u00e9'), { minLength: 1, maxLength: 200 }),
        fc.integer({ min: 1, max: 1200 }),
        fc.nat(400),
        fc.array(fc.nat(250_000), { maxLength: 3 }),
        fc.nat(300_000),
        fc.array(fc.tuple(fc.array(context, { maxLength: 4 }), fc.array(context, { maxLength: 4 }), fc.nat(7)), {
          maxLength: 3,
        }),
        fc.nat(),
        (sets, piece, repeat, blanks, cuts, after, contexts, conditionBits) => {
          // Runs of blanks between the pieces: hits sparse enough for a call to go on past its first window.
          const bytes = Buffer.from(`${piece.join('')}${' '.repeat(blanks)}`.repeat(repeat), 'utf8');
          for (const [keywords, boundBits, mutedBits] of sets) {
            const automaton = buildKeywordAutomaton(
              keywords.map((word, index) => ({ keywords: [word], item: index })),
              [],
              (item) => ((boundBits >> (item % 30)) & 1) === 1,
            );
            const states = automaton.accepting.slice();
            automaton.outputs.forEach((list, state) => {
              if (list?.every((output) => output.items.every((item) => ((mutedBits >> (item % 30)) & 1) === 1)))
                states[state] = 0;
            });
            // Some accepting states' hits kept only where a condition holds (a hit context's), some reaching past
            // the bytes the module copies in beside its window.
            if (contexts.length > 0)
              states.forEach((flag, state) => {
                if (flag !== 0 && ((conditionBits >> (state % 30)) & 1) === 1)
                  states[state] = FIRST_CONDITION + (state % contexts.length);
              });
            const conditions = conditionsOf(
              contexts.map(([before, after, length]) => ({
                context: hitContext(before, length === 7 ? [...after, ...Array(200).fill(' -~')] : after),
                length,
              })),
            );
            const accepting = acceptingOf(states, conditions);
            const inJs = ordered(new KeywordHits(2048, null), automaton, bytes, cuts, accepting);
            expect(ordered(wasm, automaton, bytes, cuts, accepting)).toEqual(inJs);
            // Made in the middle of a pass.
            expect(ordered(new KeywordHits(2048, { quarter: 1024, after }), automaton, bytes, cuts, accepting)).toEqual(
              inJs,
            );
          }
        },
      ),
      { numRuns: 60 },
    );
    // A keyword across each window's end (64 KB from where the pass starts).
    const automaton = buildKeywordAutomaton([{ keywords: ['abcdef'], item: 0 }]);
    for (let back = 1; back < 6; back++) {
      const bytes = Buffer.alloc(140_000, 32);
      for (const end of [65_536, 131_072]) bytes.write('abcdef', end - back, 'latin1');
      const [hits] = ordered(wasm, automaton, bytes, []);
      expect(hits.filter((_, index) => index % 2 === 1)).toEqual([65_541 - back, 131_077 - back]);
    }
    // A condition read past the bytes copied in beside a window (the hit is then JavaScript's to judge), and on them.
    const dots = buildKeywordAutomaton([{ keywords: ['.'], item: 0 }]);
    const far = acceptingOf(
      dots.accepting.map((flag) => (flag === 1 ? FIRST_CONDITION : 0)),
      conditionsOf([{ context: hitContext(['a-z'], Array(250).fill(' -~')), length: 1 }]),
    );
    const bytes = Buffer.alloc(200_000, 'x');
    const dotsAt = [1_000, 65_400, 65_530, 65_535, 65_600, 131_000, 131_071, 199_700, 199_790];
    for (const at of dotsAt) bytes[at] = 0x2e;
    bytes[199_999] = 0x0a;
    const [held] = ordered(wasm, dots, bytes, [], far);
    expect(held).toEqual(ordered(new KeywordHits(2048, null), dots, bytes, [], far)[0]);
    expect(held.filter((_, index) => index % 2 === 1)).toEqual([
      1_000, 65_400, 65_530, 65_535, 65_600, 131_000, 131_071, 199_700,
    ]);
  });

  test('a pass used before (its loops warmed over nothing when made, then run on another text) finds what a new one does, over text and bytes', () => {
    const pass = (found: KeywordHits, automaton: ReturnType<typeof buildKeywordAutomaton>, text: string) => {
      const bytes = Buffer.from(text, 'latin1');
      const accepting = acceptingOf(automaton.accepting);
      found.find(automaton, accepting, text, 0, text.length, 0);
      const onText = [found.count, [...found.ends.subarray(0, found.count)], found.at, found.state];
      found.findBytes(automaton, accepting, bytes, 0, bytes.length, 0);
      return [onText, [found.count, [...found.ends.subarray(0, found.count)], found.at, found.state]];
    };
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(' ', 'key', 'a k', 'token', ' t'), { minLength: 1 }),
        fc.string({ unit: fc.constantFrom(' ', 'a', 'k', 'e', 'y', 't', 'o', 'n', 'K', '\n') }),
        (keywords, text) => {
          const automaton = buildKeywordAutomaton(keywords.map((keyword) => ({ keywords: [keyword], item: keyword })));
          const used = new KeywordHits();
          pass(used, automaton, `${text} key token`);
          expect(pass(used, automaton, text)).toEqual(pass(new KeywordHits(), automaton, text));
        },
      ),
    );
  });
});
