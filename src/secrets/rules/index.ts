import { ruleOf } from '../lazy-rule.js';
import type { SecretRule } from '../rule.js';
import { builtinRuleTable, isFormatFile, RULE_FILES } from './table.js';

export { isFormatFile } from './table.js';

/**
 * Every built-in rule, in priority order (see `table.ts`), each made: the rule tests, the docs and the alert verifier
 * read them all. A scan takes `builtinRuleTable`, which makes the provider-named rules only at their first hit; both
 * hold the same rule objects.
 */
export const builtinRules: readonly SecretRule[] = builtinRuleTable.map(ruleOf);

let providerFilesMade: Readonly<Record<string, readonly SecretRule[]>> | undefined;

/** Each provider file's rules (the same objects as `builtinRules`), by file key, in rule order. */
export function providerFiles(): Readonly<Record<string, readonly SecretRule[]>> {
  providerFilesMade ??= Object.fromEntries(RULE_FILES.map(([file, rules]) => [file, rules.map(ruleOf)]));
  return providerFilesMade;
}

/** How many distinct vendors the built-in rules know (format families left out). */
export function providerCount(): number {
  const names = RULE_FILES.filter(([file]) => !isFormatFile(file)).flatMap(([, rules]) =>
    rules.map((rule) => ruleOf(rule).provider),
  );
  return new Set(names).size;
}
