import type { SecretRule } from './rule.js';

/**
 * What the scanner's set-up reads of a rule before any text: its keywords and name words (the prefilter), its gate
 * (checked at each keyword hit), its window, and the path filters and flags the loaders and the scanner sort rules
 * by. Every `SecretRule` has these fields; a `LazyRule` has only them.
 */
export type RuleOutline = Pick<
  SecretRule,
  | 'keywords'
  | 'nameWords'
  | 'gate'
  | 'window'
  | 'maxLength'
  | 'onlyPaths'
  | 'allowlist'
  | 'generic'
  | 'passphraseProtected'
>;

/**
 * A built-in rule kept as its outline until it is first needed: the scanner makes it at the first keyword hit whose
 * gate passes (a scan reaches a few of the 400 provider-named rules, and making each one at every start, its pattern,
 * closures and uniform copy, was a sizeable part of the CLI's start). Made once; `rule()` returns the same object
 * every time. The outline must be the made rule's own (`lazy-rule.test.ts` checks every built-in one).
 */
export class LazyRule implements RuleOutline {
  readonly keywords: readonly string[];
  readonly nameWords: readonly string[] | undefined;
  readonly gate: RegExp | undefined;
  // A lazy rule has none of these: rules with path filters, block windows or flags are made at once.
  readonly window = undefined;
  readonly maxLength = undefined;
  readonly onlyPaths = undefined;
  readonly allowlist = undefined;
  readonly generic = undefined;
  readonly passphraseProtected = undefined;
  private made: SecretRule | undefined;

  constructor(
    outline: Pick<SecretRule, 'keywords' | 'nameWords' | 'gate'>,
    private readonly make: () => SecretRule,
  ) {
    this.keywords = outline.keywords;
    this.nameWords = outline.nameWords;
    this.gate = outline.gate;
  }

  rule(): SecretRule {
    this.made ??= this.make();
    return this.made;
  }

  /** The same outline, its rule made through `finish` (the rules' index gives each rule its file's provider). */
  mapped(finish: (rule: SecretRule) => SecretRule): LazyRule {
    return new LazyRule(this, () => finish(this.make()));
  }
}

/** A rule as the scanner takes it: made, or kept as its outline until its first hit. */
export type RuleEntry = SecretRule | LazyRule;

export function ruleOf(entry: RuleEntry): SecretRule {
  return entry instanceof LazyRule ? entry.rule() : entry;
}
