import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type CompiledRule, compileRule } from './compiled-rule.js';
import { checkedGate } from './gate-checks.js';
import { type HitContext, hitContext } from './hit-context.js';
import { narrowingOf } from './keyword-narrowing.js';
import { defineRules } from './rule.js';

/** Whether the first position of `context` on each side of `text[at, end)` holds, read naively. */
function firstHolds(context: HitContext | undefined, text: string, at: number, end: number): boolean {
  if (context === undefined) return true;
  const fits = (chars: string | undefined, offset: number) => {
    if (chars === undefined) return true;
    const char = text[offset];
    return char !== undefined && /^[\x00-\x7f]$/.test(char) && new RegExp(`^[${chars}]$`).test(char);
  };
  return fits(context.before.at(-1), at - 1) && fits(context.after[0], end);
}

const CONTEXTS: Array<HitContext | undefined> = [
  undefined,
  hitContext([], [`s"' \t`]),
  hitContext([], [`"' \t=:-`]),
  hitContext(['0-9', ' '], ['a-z', 'x']),
  hitContext(['_ '], []),
  undefined,
];

const rules = defineRules(
  CONTEXTS.map((context, index) => ({
    id: `narrow-${index}`,
    title: 'a rule of the narrowing test',
    severity: 'high' as const,
    keywords: ['key'],
    gate: context === undefined ? /[ =]/ : checkedGate(new RegExp(`x${index}`), () => true, 0, context as HitContext),
    pattern: /key=(?<secret>[a-z]{8})/,
    samples: { match: [], ignore: [] },
  })),
);
const compiled: CompiledRule[] = rules.map((rule, index) => compileRule(rule, index));
const narrowing = narrowingOf(compiled)!;

const text = fc
  .array(
    fc.constantFrom('key', 'KEY', ' ', '\t', '"', "'", '=', ':', '-', 's', 'a', 'x', '0', '_', '.', '?', 'é', '中'),
    {
      maxLength: 30,
    },
  )
  .map((units) => units.join(''));

describe('keyword narrowing', () => {
  test('leaves out exactly the rules whose context fails next to the hit, from a string and from bytes', () => {
    fc.assert(
      fc.property(text, (value) => {
        const bytes = Buffer.from(value.replace(/[^\x00-\x7f]/g, '\u00e9'), 'latin1');
        for (const { index: at } of value.matchAll(/(?=key)/gi)) {
          const end = at + 3;
          const expected = compiled
            .filter((_, index) => firstHolds(CONTEXTS[index], value, at, end))
            .map((item) => item.index);
          expect(narrowing.inText(value, at, end).map((item) => item.index)).toEqual(expected);
          expect(narrowing.inBytes(bytes, at, end).map((item) => item.index)).toEqual(expected);
        }
      }),
      { numRuns: 3000 },
    );
  });

  test('none for rules without contexts', () => {
    expect(narrowingOf([compiled[0]!, compiled[5]!])).toBeUndefined();
  });
});
