import type { SecretRule } from './rule.js';

/**
 * Every field of a rule, none optional: `uniformRule` must name each one, so a field added to `SecretRule` and not
 * here fails the typecheck.
 */
type EveryField = { readonly [K in keyof Required<SecretRule>]: SecretRule[K] };

/**
 * The same rule as an object of one shape: every field, in one order, `undefined` where the rule has none. The
 * built-in rules are written as object literals with different fields in different orders (77 shapes among 923 rules),
 * so each place in the scan's hot code that reads a rule's field (`rule.generic`, `rule.secretGroup`, …) saw a new
 * shape now and then, and V8 threw away its optimized code there and compiled it again (`--trace-deopt`: "wrong map"),
 * until it gave up on the shape and read the field the slow way. Each scanning thread's isolate pays that again. One
 * shape lets every such read stay a single check.
 */
export function uniformRule(rule: SecretRule): SecretRule {
  return uniformRuleWith(rule, rule.provider, rule.reference);
}

/**
 * `uniformRule` with `provider` and `reference` in place of the rule's own (the rules' index gives each rule its
 * file's): one copy, where spreading the rule into a new object first made two of each of the 923 rules at every start.
 */
export function uniformRuleWith(
  rule: SecretRule,
  provider: string | undefined,
  reference: string | undefined,
): SecretRule {
  const fields: EveryField = {
    id: rule.id,
    title: rule.title,
    provider,
    reference,
    severity: rule.severity,
    keywords: rule.keywords,
    nameWords: rule.nameWords,
    pattern: rule.pattern,
    gate: rule.gate,
    entropy: rule.entropy,
    validate: rule.validate,
    rejectedBecause: rule.rejectedBecause,
    claimsRejected: rule.claimsRejected,
    allowlist: rule.allowlist,
    onlyPaths: rule.onlyPaths,
    secretGroup: rule.secretGroup,
    window: rule.window,
    maxLength: rule.maxLength,
    generic: rule.generic,
    passphraseProtected: rule.passphraseProtected,
    commonInExamples: rule.commonInExamples,
    samples: rule.samples,
  };
  return fields as SecretRule;
}
