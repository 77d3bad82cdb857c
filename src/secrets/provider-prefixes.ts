import { type RuleEntry, ruleOf } from './lazy-rule.js';

/**
 * The literal prefixes provider tokens announce themselves with (`glpat-`, `xoxb-`, `HRKU-`), from the rules: a
 * keyword ending in a separator that the rule's own match samples start with. A value with such a prefix and fewer
 * than 16 characters after it (`duffel_test_abc123`, `API-1234`) is a token cut short in docs or a stand-in: no
 * provider issues keys that short, and its provider's rule did not take it, so no generic rule reports it either.
 * (Longer ones stay with the generic rules: other scanners' formats for a prefix are often looser than ours.)
 */
export function providerPrefixTest(rules: readonly RuleEntry[]): (value: string) => boolean {
  // Built at the first generic candidate, not with the scanner: it reads the rules' samples, which are made when first
  // read, and most scans (an empty or clean file, a worker's share) never need it.
  let test: ((value: string) => boolean) | undefined;
  return (value) => {
    test ??= prefixTestOf(rules);
    return test(value);
  };
}

function prefixTestOf(rules: readonly RuleEntry[]): (value: string) => boolean {
  const prefixes = new Set<string>();
  for (const rule of rules) {
    if (rule.generic || rule.nameWords) continue;
    for (const keyword of rule.keywords) {
      if (!/^[A-Za-z][A-Za-z0-9_.-]{0,20}[_.-]$/.test(keyword)) continue;
      if (ruleOf(rule).samples.match.some((sample) => sample.startsWith(keyword))) prefixes.add(keyword);
    }
  }
  if (prefixes.size === 0) return () => false;
  const escaped = [...prefixes].map((prefix) => prefix.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'));
  const pattern = new RegExp(`^(?:${escaped.join('|')})[^]{0,15}$`);
  return (value) => pattern.test(value);
}
