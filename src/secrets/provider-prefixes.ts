import { type RuleEntry, ruleOf } from './lazy-rule.js';

/**
 * The literal prefixes provider tokens announce themselves with (`glpat-`, `xoxb-`, `HRKU-`), from the rules: a
 * keyword ending in a separator that the rule's own match samples start with. A value with such a prefix and fewer
 * than 16 characters after it (`duffel_test_abc123`, `API-1234`) is a token cut short in docs or a stand-in: no
 * provider issues keys that short, and its provider's rule did not take it, so no generic rule reports it either.
 * (Longer ones stay with the generic rules: other scanners' formats for a prefix are often looser than ours.)
 */
export function providerPrefixTest(rules: readonly RuleEntry[]): (value: string) => boolean {
  // Built at the first generic candidate, not with the scanner, and from the keywords alone: a rule's samples are made
  // when first read (about 15 ms for every rule's at once), so only those of a keyword some candidate starts with are.
  let test: ((value: string) => boolean) | undefined;
  return (value) => {
    test ??= prefixTestOf(rules);
    return test(value);
  };
}

/** A keyword that may be a token's prefix: a letter, then up to 21 more characters, the last a separator. */
const PREFIX_SHAPE = /^[A-Za-z][A-Za-z0-9_.-]{0,20}[_.-]$/;
const SHORTEST = 2;
const LONGEST = 22;
/** At most this many characters after the prefix: a value this short past its prefix is no real token. */
const MOST_AFTER = 15;

/**
 * True for a value that starts with a prefix and has at most `MOST_AFTER` characters after it. A prefix is a keyword of
 * the prefix's shape, of a rule neither generic nor name-worded, that one of the rule's own match samples starts with.
 */
export function prefixTestOf(rules: readonly RuleEntry[]): (value: string) => boolean {
  const owners = new Map<string, RuleEntry[]>();
  for (const rule of rules) {
    if (rule.generic || rule.nameWords) continue;
    for (const keyword of rule.keywords) {
      if (!PREFIX_SHAPE.test(keyword)) continue;
      const list = owners.get(keyword);
      if (list === undefined) owners.set(keyword, [rule]);
      else if (!list.includes(rule)) list.push(rule);
    }
  }
  if (owners.size === 0) return () => false;
  const known = new Map<string, boolean>();
  const isPrefix = (keyword: string): boolean => {
    let prefix = known.get(keyword);
    if (prefix === undefined) {
      prefix = owners
        .get(keyword)!
        .some((rule) => ruleOf(rule).samples.match.some((sample) => sample.startsWith(keyword)));
      known.set(keyword, prefix);
    }
    return prefix;
  };
  return (value) => {
    const last = Math.min(LONGEST, value.length);
    for (let length = Math.max(SHORTEST, value.length - MOST_AFTER); length <= last; length++) {
      const head = value.slice(0, length);
      if (owners.has(head) && isPrefix(head)) return true;
    }
    return false;
  };
}
