import type { Severity } from '../core/finding.js';
import type { FileSyntax } from './syntax.js';

/**
 * One secret rule: a provider token format or a generic assignment shape. A rule carries its own samples, which the
 * table test (`rules.test.ts`) runs through the real scanner in every syntax context.
 */
export interface SecretRule {
  /** kebab-case, starts with the provider file's name (`github-pat` lives in `rules/github.ts`). */
  readonly id: string;
  /** Human title shown in findings, with the token's visible prefix when it has one: `GitHub personal access token (ghp_…)`. */
  readonly title: string;
  /**
   * Who issues the credential, as its users name it (`GitHub`, `Doppler`), or the format's family for rules that are
   * not a vendor's (`Private key`, `Password assignment`). Built-in rules get it from their file's entry in
   * `rules/providers.ts` unless they set their own; the rules test fails on a built-in rule without one.
   */
  readonly provider?: string;
  /** Where the format is documented (the provider's docs, or GitHub's list of supported secret-scanning patterns). */
  readonly reference?: string;
  readonly severity: Severity;
  /**
   * Case-insensitive literals; the rule runs only in a window around a hit of one of them. Each must occur in every
   * match sample, or the rule would be silently switched off for it. Only imported rules may have none: those run
   * over the whole text, which is slow.
   */
  readonly keywords: readonly string[];
  /**
   * For a rule whose every match names it in an assignment: one of `keywords` starting a word of the name (at its
   * start or after `_`, `.` or `-`), and one of these words later in the same name (`toggl_api_key`). The prefilter
   * looks for these few words, which many such rules share, and at each hit finds the `keywords` in the name before
   * it: hundreds of provider names then cost nothing per character of text (each keyword in the prefilter's automaton
   * adds states that ordinary words walk through). A keyword must start within `NAME_REACH` characters of the word.
   */
  readonly nameWords?: readonly string[];
  /**
   * The shape. The secret is the named group `secret` when present, else group 1, else the whole match. Must stay
   * linear: no nested or overlapping unbounded quantifiers (checked on adversarial input by the rules test).
   */
  readonly pattern: RegExp;
  /**
   * A cheap check of the text right after a keyword hit (tested sticky there), so that the rule's window is not even
   * cut for hits that cannot start a match: `token.kind` after the keyword `token` has no `=` or `:`. An optimisation
   * only; the samples test proves it never hides a match sample.
   */
  readonly gate?: RegExp;
  /** Minimum Shannon entropy (bits per character) of the secret. */
  readonly entropy?: number;
  /** Format check beyond the regex (checksums, decodable base64); a secret it rejects is not reported. */
  readonly validate?: (secret: string, context: MatchContext) => boolean;
  /** Why `validate` rejected a value, in a few words (`--report-allowed` lists it); default: a failed format check. */
  readonly rejectedBecause?: (secret: string, context: MatchContext) => string;
  /**
   * For a match its checks reject: whether the rule still speaks for that text, so that no generic rule reports it
   * (a wrong checksum, a value one character off the format). Default: a provider rule does. A provider-named rule
   * speaks only when its provider really names the value (`abyssale_key`, not `abyssalesque_key`).
   */
  readonly claimsRejected?: (secret: string, context: MatchContext) => boolean;
  readonly allowlist?: RuleAllowlist;
  /** The rule runs only on files whose repo-relative path matches (formats tied to one file, like `.netrc`). */
  readonly onlyPaths?: RegExp;
  /** Which capture group holds the secret, when neither a `secret…` group nor group 1 does (imported gitleaks rules). */
  readonly secretGroup?: number;
  /**
   * `line` (default): the window is the line around the keyword hit. `block`: from the hit forward up to
   * `maxLength` characters, for multi-line secrets (PEM keys). `item`: the line window and up to 7 lines before and after
   * it, for a pair whose value may come first or a few lines away (a YAML list item's `value:` line above its `name:`
   * line, or comments and other keys between them; see `queueLineWindow`).
   */
  readonly window?: 'line' | 'block' | 'item';
  /** Upper bound on the match length, for `block` windows. */
  readonly maxLength?: number;
  /**
   * Generic rules judge a value by its name and shape, not by a provider format; they yield to a provider rule on the
   * same text, skip lockfiles and minified code, scan long data lines only near keyword hits, and need quotes around
   * values in program code.
   */
  readonly generic?: boolean;
  /** A private key that is useless without its passphrase: dropped when `secrets.encryptedKeys` is `ignore`. */
  readonly passphraseProtected?: boolean;
  /** A format documentation shows as an example (JWTs): not reported in API documentation example files. */
  readonly commonInExamples?: boolean;
  /** Built-in rules make theirs when first read (`lazySamples`): no scan reads them, every start loaded them. */
  readonly samples: RuleSamples;
}

export interface RuleAllowlist {
  /** A secret matching one of these is not reported. */
  readonly regexes?: readonly RegExp[];
  /** A secret containing one of these (case-insensitive) is not reported. */
  readonly stopwords?: readonly string[];
  /** Files whose path matches one of these are not checked by this rule. */
  readonly paths?: readonly RegExp[];
}

export interface RuleSamples {
  /**
   * The name the samples are assigned to in each syntax context (`KEY=value`, `key: value`, …). Rules that need a
   * name next to the value (generic passwords, AWS secret keys) set it; default `value`.
   */
  readonly key?: string;
  /** Secrets the rule must find, exactly once each, in every context. Built by the generators in `sample-tokens.ts`. */
  readonly match: readonly string[];
  /** Values the scanner must not report in any context (placeholders, wrong checksums, public values). */
  readonly ignore: readonly string[];
  /**
   * For formats that only exist in one syntax (XML settings, PuTTY files, `--password` flags), the contexts to test
   * instead of the standard env / YAML / JSON / TOML / code / shell set.
   */
  readonly contexts?: readonly SampleContext[];
}

export interface SampleContext {
  readonly name: string;
  /** File name the sample is scanned as (decides code vs config syntax). */
  readonly path: string;
  readonly render: (value: string) => string;
}

export function defineRules(rules: readonly SecretRule[]): readonly SecretRule[] {
  return rules;
}

/**
 * The samples of a rule that has none (config `secrets.rules`, an imported gitleaks config): one object shared by all
 * of them, not an object and two arrays made for each such rule as its config loads (built-in rules make theirs when
 * first read, see `lazySamples`). Frozen: no rule's samples can change another's.
 */
export const NO_SAMPLES: RuleSamples = Object.freeze({ match: Object.freeze([]), ignore: Object.freeze([]) });

/** What a rule's `validate` gets besides the secret, for the generic rules that judge a value by its name. */
export interface MatchContext {
  /** The `name` group of the match (`DB_PASSWORD`), when the pattern has one. */
  readonly name?: string;
  /** Which group held the secret: `secretQuoted` means the value was in quotes, `secretBare` that it was not. */
  readonly group: string;
  readonly syntax: FileSyntax;
  /** The `host` group of the match (a URL's host), when the pattern has one. */
  readonly host?: string;
}
