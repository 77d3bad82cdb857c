import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { Utf8ByteView } from './byte-view.js';
import { compileRule, opensAt } from './compiled-rule.js';
import { checkedGate, gateCheckOf, hitContextOf } from './gate-checks.js';
import {
  conditionsOf,
  FIRST_CONDITION,
  type HitContext,
  hitContext,
  holdsInBytes,
  holdsInText,
} from './hit-context.js';
import { GateCheck } from './name-gate.js';
import type { SecretRule } from './rule.js';
import { builtinRules } from './rules/index.js';
import { type RawSecret, SecretScanner } from './scanner.js';

/** Whether `context` holds around `text[at, at + length)`, read naively. */
function naiveHolds(context: HitContext, text: string, at: number, length: number): boolean {
  const fits = (chars: string, offset: number) => {
    const char = text[offset];
    return offset >= 0 && char !== undefined && /^[\x00-\x7f]$/.test(char) && new RegExp(`^[${chars}]$`).test(char);
  };
  const { before, after } = context;
  return (
    before.every((chars, index) => fits(chars, at - before.length + index)) &&
    after.every((chars, index) => fits(chars, at + length + index))
  );
}

const CONTEXT_RULES = builtinRules.filter((rule) => hitContextOf(rule.gate) !== undefined);

/** `sample` in each of its rule's sample contexts (the spaced provider key's name and value: `BEEBOLE_ACCESS …`). */
function rendered(rule: SecretRule, sample: string): string[] {
  return (rule.samples.contexts ?? []).map((context) => context.render(sample));
}

/** The same rule with a gate of the same regex and check but no context: the keyword pass then keeps every hit. */
function withoutContext(rule: SecretRule): SecretRule {
  const gate = rule.gate!;
  const bare = checkedGate(new RegExp(gate.source, gate.flags), gateCheckOf(gate)!);
  return { ...rule, gate: bare };
}

const B64 = 'ABCMNOTjzwxyAEIQUYcgk0123456789_-';
const unit = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...B64) },
  { weight: 3, arbitrary: fc.constantFrom('.', '|', '..', '||') },
  { weight: 2, arbitrary: fc.constantFrom(' ', '\n', '=', '"', '\r\n', 'a.b', '1|') },
  { weight: 1, arbitrary: fc.constantFrom('é', '\u00a0', '中', '😀', '\u0130') },
  { weight: 1, arbitrary: fc.constantFrom('MTE4NDQyMDM5NzE2MjU2MTUzNg', '123456789012345|', 'x'.repeat(27)) },
  // The spaced provider key's keywords and what its context reads after them.
  { weight: 2, arbitrary: fc.constantFrom('access', 'ACCESS', 'Key', 'token', 'secret', 'beebole', '_', 's', 'S') },
  { weight: 2, arbitrary: fc.constantFrom("'", '\t', '  ', 'x'.repeat(20), '(', ':') },
  // The named Azure key's keywords and what its context reads after them.
  { weight: 1, arbitrary: fc.constantFrom('account', 'Storage', 'ke', 'y', 'ab', '.k', 'KEY=') },
  // The Graph API token's keyword and runs of letters and digits around its 90.
  { weight: 1, arbitrary: fc.constantFrom('EAA', 'eaa', 'Ab1'.repeat(20), 'q'.repeat(89), `EAA${'Zz9'.repeat(30)}`) },
  // Prefixes of letter-and-digit bodies (`ion_` + 42, `xai-` + 80), the Gradle block's and the logged key's keywords.
  { weight: 1, arbitrary: fc.constantFrom('ion_', 'ION_', 'xai-', 'Ab1'.repeat(14), 'q'.repeat(41), 'Zz9'.repeat(27)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('credentials', 'credentials{', 'Credentials(', '{', '(x)', 'request to', '\tapi'),
  },
);
const run = (chars: string, min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...chars), minLength: min, maxLength: max });
/** Near-tokens of both rules: every part a little shorter or longer than the rule wants, around the lengths it takes. */
const nearToken = fc.oneof(
  fc
    .tuple(fc.constantFrom('M', 'N', 'O', 'a', ''), run(B64, 19, 29), run(B64, 4, 8), run(B64, 24, 40))
    .map(([first, one, two, three]) => `${first}${one}.${two}.${three}`),
  fc.tuple(run('0123456789', 1, 18), run(B64, 20, 34)).map(([digits, rest]) => `${digits}|${rest}`),
);
const dense = fc
  .array(fc.oneof({ weight: 5, arbitrary: unit }, { weight: 1, arbitrary: nearToken }), { maxLength: 60 })
  .map((units) => units.join(''));

describe('hit contexts', () => {
  test('allow ASCII characters only', () => {
    expect(() => hitContext([], ['^a'])).toThrow(/ASCII/);
    expect(() => hitContext(['\\s'], [])).toThrow(/ASCII/);
    expect(() => hitContext(['A-Za-z0-9_-'], ['.'])).not.toThrow();
  });

  test('are checked over text and bytes as a naive reading checks them', () => {
    const contexts = [
      hitContext(['0-9'], ['A-Za-z0-9_-', 'A-Za-z0-9_-']),
      hitContext(['A-Z', 'a-z'], []),
      hitContext([], ['.', 'x']),
    ];
    const lengths = [1, 1, 2];
    const conditions = conditionsOf(contexts.map((context, index) => ({ context, length: lengths[index]! })));
    fc.assert(
      fc.property(dense, fc.nat(3), fc.nat(130), (text, which, at) => {
        const index = which % contexts.length;
        const length = lengths[index]!;
        const after = Math.min(at, text.length) + length;
        const mark = index + FIRST_CONDITION;
        const expected = naiveHolds(contexts[index]!, text, after - length, length);
        expect(holdsInText(conditions, mark, text, after)).toBe(expected);
        // Bytes one per character: a non-ASCII character is a byte past 127 here, which no position allows.
        const bytes = Buffer.from(text.replace(/[^\x00-\x7f]/g, '\u00e9'), 'latin1');
        expect(holdsInBytes(conditions, mark, bytes, after)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  test('the built-in ones: wherever a context fails, its gate turns the hit down', () => {
    expect(CONTEXT_RULES.map((rule) => rule.id).sort()).toEqual(
      expect.arrayContaining([
        'azure-storage-account-key-named',
        'discord-bot-token-bare',
        'facebook-app-access-token',
        'facebook-graph-access-token',
        'gradle-credentials-password',
        'ionic-personal-access-token',
        'providers-prose-logged-key',
        'providers-prose-spaced-key',
        'xai-api-key',
      ]),
    );
    for (const rule of CONTEXT_RULES) {
      const compiled = compileRule(rule, 0);
      const context = hitContextOf(rule.gate)!;
      const samples = rule.samples.match.flatMap((sample) => [` ${sample} `, ...rendered(rule, sample)]);
      fc.assert(
        fc.property(
          fc.oneof(dense, fc.constantFrom(...samples)),
          fc.array(fc.nat(40), { maxLength: 3 }),
          (text, cuts) => {
            // A sample with a character cut out of it here and there, so that contexts fail at every distance.
            let value = text;
            for (const cut of cuts) value = value.slice(0, cut) + value.slice(cut + 1);
            const gates = new GateCheck(value);
            for (const keyword of rule.keywords) {
              // In any case (`EAA`); not through `toLowerCase`, which makes `İ` two code units.
              const escaped = keyword.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
              for (const { index: at } of value.matchAll(new RegExp(`(?=${escaped})`, 'gi'))) {
                if (naiveHolds(context, value, at, keyword.length)) continue;
                expect(opensAt(compiled, value, at + keyword.length, gates)).toBe(false);
              }
            }
          },
        ),
        { numRuns: 3000 },
      );
    }
  });
});

describe('a scan with hit contexts', () => {
  const withContexts = new SecretScanner(builtinRules);
  const without = new SecretScanner(
    builtinRules.map((rule) => (hitContextOf(rule.gate) === undefined ? rule : withoutContext(rule))),
  );
  const summary = (found: readonly RawSecret[]) =>
    found.map((item) => `${item.rule.id} ${item.start}-${item.end} ${item.secret} ${item.rejected ?? ''}`);
  const OPTIONS = { path: 'src/app.js', keepAllowed: true, keepRejected: true };
  const tokens = CONTEXT_RULES.flatMap((rule) => [
    ...rule.samples.match,
    ...rule.samples.ignore,
    ...rule.samples.match.flatMap((sample) => rendered(rule, sample)),
  ]);
  const text = fc
    .array(fc.oneof({ weight: 6, arbitrary: unit }, { weight: 1, arbitrary: fc.constantFrom(...tokens) }), {
      maxLength: 80,
    })
    .map((units) => units.join(''));

  test('finds what the same rules without them find, from a string and from bytes (ASCII and UTF-8)', () => {
    fc.assert(
      fc.property(text, (value) => {
        const expected = summary(without.scanText(value, OPTIONS));
        expect(summary(withContexts.scanText(value, OPTIONS))).toEqual(expected);
        const view = new Utf8ByteView(Buffer.from(value, 'utf8'));
        const fromBytes = withContexts.scanView(view, OPTIONS) ?? withContexts.scanText(view.utf8(), OPTIONS);
        expect(summary(fromBytes)).toEqual(expected);
        expect(withContexts.mayFind(value, OPTIONS.path) || expected.length === 0).toBe(true);
      }),
      { numRuns: 600 },
    );
  });

  test('every sample of the context rules is found, after other dots, bars and `access` on its line', () => {
    for (const rule of CONTEXT_RULES) {
      const lines = rule.samples.match.flatMap((sample) => {
        const own = rendered(rule, sample);
        return own.length > 0 ? own : [`const token = "${sample}";`];
      });
      for (const line of lines) {
        const value = `a.b || c.d.e = 1|2; access(x) accessToken; ${line} x.y\n`;
        const found = withContexts.scanText(value, OPTIONS).map((item) => item.rule.id);
        expect(found).toContain(rule.id);
        expect(summary(withContexts.scanText(value, OPTIONS))).toEqual(summary(without.scanText(value, OPTIONS)));
      }
    }
  });
});
