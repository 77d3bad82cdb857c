import fc from 'fast-check';
import { expect } from 'vitest';
import type { SecretRule } from '../../src/secrets/rule.js';
import { SecretScanner } from '../../src/secrets/scanner.js';

/** The same rule with its gate's regex alone: no check in code, no name-gate shape. */
export const withGateRegexAlone = (rule: SecretRule): SecretRule => ({
  ...rule,
  gate: new RegExp(rule.gate!.source, rule.gate!.flags),
});

export interface NamedTextParts {
  /** Pieces before the name (up to three of them). */
  readonly before: string[];
  /** Name characters before the keyword (up to three). */
  readonly name: string[];
  readonly keywords: string[];
  /** Name characters after the keyword (up to two). */
  readonly rest: string[];
  /** What follows the name: a value, an attribute, a closing quote. */
  readonly after: string[];
  readonly paths: string[];
}

/** Lines of a secret-named name in the context `parts` give, each with the path it is scanned under. */
export function namedTexts(parts: NamedTextParts): fc.Arbitrary<{ text: string; path: string }> {
  return fc
    .tuple(
      fc.array(fc.constantFrom(...parts.before), { maxLength: 3 }),
      fc.array(fc.constantFrom(...parts.name), { maxLength: 3 }),
      fc.constantFrom(...parts.keywords),
      fc.array(fc.constantFrom(...parts.rest), { maxLength: 2 }),
      fc.constantFrom(...parts.after),
      fc.constantFrom(...parts.paths),
    )
    .map(([before, name, keyword, rest, after, path]) => ({
      text: `${before.join('')}${name.join('')}${keyword}${rest.join('')}${after}\n`,
      path,
    }));
}

/**
 * Asserts that `rules` find the same secrets in every text as they do with their gate's regex alone, so the look back
 * in code turns down only what the regex would. The texts must hold findings, or the property proves nothing.
 */
export function expectLookBackFindsTheSame(rules: SecretRule[], texts: fc.Arbitrary<{ text: string; path: string }>) {
  const withCheck = new SecretScanner(rules);
  const withoutCheck = new SecretScanner(rules.map(withGateRegexAlone));
  let found = 0;
  fc.assert(
    fc.property(texts, ({ text, path }) => {
      const of = (scanner: SecretScanner) =>
        scanner.scanText(text, { path }).map((item) => `${item.rule.id} ${item.start} ${item.secret}`);
      const expected = of(withoutCheck);
      found += expected.length;
      expect(of(withCheck)).toEqual(expected);
    }),
    { numRuns: 5000 },
  );
  expect(found).toBeGreaterThan(100);
}
