import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { propertyRuns } from '../../test/support/property-runs.js';
import { LazyRule, type RuleEntry, ruleOf } from './lazy-rule.js';
import type { SecretRule } from './rule.js';
import { builtinRules } from './rules/index.js';
import { namedProviderRules } from './rules/named-providers.js';
import { SAAS_NAMED_ROWS } from './rules/providers-named-saas.js';
import { builtinRuleTable } from './rules/table.js';
import { SecretScanner } from './scanner.js';

const lazy = builtinRuleTable.filter((entry): entry is LazyRule => entry instanceof LazyRule);

/** A fresh lazy rule per row of one named table, each recording its id when made. */
function freshTable(made: string[]): RuleEntry[] {
  return Object.values(namedProviderRules(SAAS_NAMED_ROWS)).flatMap((entries) =>
    entries.map((entry) =>
      entry instanceof LazyRule
        ? entry.mapped((rule) => {
            made.push(rule.id);
            return rule;
          })
        : entry,
    ),
  );
}

const found = (scanner: SecretScanner, text: string, path: string) =>
  scanner.scanText(text, { path }).map((item) => [item.rule.id, item.secret, item.start, item.end]);

describe('built-in rules made at their first hit', () => {
  test('the provider-named rules are lazy, each outline is its made rule’s own', () => {
    expect(lazy.length).toBeGreaterThanOrEqual(400);
    for (const entry of lazy) {
      const rule = entry.rule();
      expect(rule.keywords).toBe(entry.keywords);
      expect(rule.nameWords).toBe(entry.nameWords);
      expect(rule.gate).toBe(entry.gate);
      for (const field of [
        'window',
        'maxLength',
        'onlyPaths',
        'allowlist',
        'generic',
        'passphraseProtected',
      ] as const) {
        expect(rule[field], `${rule.id}.${field}`).toBeUndefined();
      }
    }
  });

  test('the table holds the same rules as builtinRules, in order, each made once', () => {
    expect(builtinRuleTable.length).toBe(builtinRules.length);
    expect(builtinRuleTable.map(ruleOf)).toEqual(builtinRules);
    for (const [index, entry] of builtinRuleTable.entries()) expect(ruleOf(entry)).toBe(builtinRules[index]);
    for (const entry of lazy) expect(entry.rule()).toBe(entry.rule());
  });

  test('a scan makes only the rules whose gate passed at a hit', () => {
    const made: string[] = [];
    const scanner = new SecretScanner(freshTable(made));
    const [slug, , aliases] = SAAS_NAMED_ROWS[0]!;
    const alias = aliases.split(' ')[0]!;
    expect(made).toEqual([]);
    expect(found(scanner, `the ${alias} key is rotated monthly\n`, 'notes.txt')).toEqual([]);
    expect(made).toEqual([]);
    scanner.scanText(`${alias.toUpperCase()}_API_KEY=x\n`, { path: '.env' });
    expect(made).toEqual([`${slug}-named-key`]);
  });

  test('a scanner of lazy rules finds what one of the same rules made finds', () => {
    const table = freshTable([]);
    const madeRules: SecretRule[] = freshTable([]).map(ruleOf);
    const samples = madeRules.map((rule) => ({ key: rule.samples.key ?? 'value', value: rule.samples.match[0]! }));
    // The lines below do reach the rules: a row's own sample under its alias is found, lazily as made.
    const first = madeRules[0]!;
    const secret = first.samples.match[0]!;
    const own = `${first.keywords[0]}_api_key=${secret}\n`;
    const at = own.indexOf(secret);
    expect(found(new SecretScanner(table), own, '.env')).toEqual([[first.id, secret, at, at + secret.length]]);
    const line = fc.oneof(
      fc.constantFrom(...samples).map(({ value }) => value),
      fc
        .tuple(fc.constantFrom(...SAAS_NAMED_ROWS), fc.constantFrom(...samples), fc.constantFrom('=', ': ', ' := '))
        .map(([[, , aliases], { value }, separator]) => `${aliases.split(' ')[0]}_token${separator}${value}`),
      fc.string({ maxLength: 40 }),
    );
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 6 }),
        fc.constantFrom('.env', 'config/app.yaml', 'src/a.ts'),
        (lines, path) => {
          const text = `${lines.join('\n')}\n`;
          const lazyScanner = new SecretScanner(table);
          expect(found(lazyScanner, text, path)).toEqual(found(new SecretScanner(madeRules), text, path));
        },
      ),
      { numRuns: propertyRuns(40, 400) },
    );
  });
});
