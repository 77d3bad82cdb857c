// The suppressions `imported-suppressions.ts` reads, as data, and their test against a finding. No parser here: the
// scan worker gets them from the main thread (a Map, strings and regular expressions, which structured cloning
// copies), so it loads none of the config parsers (docs/benchmarks.md).

/**
 * Suppressions a team already keeps for another scanner, honoured so it can switch without editing its code:
 * `.gitleaksignore` fingerprints (`[commit:]file:rule-id:line`) and secretlint's `allows` patterns. Like the baseline,
 * they are files a reviewer sees in the diff, so the gate accepts them for high and critical secrets only when
 * they are part of the repository.
 */
export interface ImportedSuppressions {
  /** `.gitleaksignore` entries by file path. */
  readonly places: ReadonlyMap<string, readonly IgnoredPlace[]>;
  /** secretlint `allows`: a secret containing the literal, or matching the pattern, is allowed. */
  readonly allows: readonly AllowPattern[];
  /** Repository-relative files they were read from (for the gate's "is it reviewed" question). */
  readonly files: readonly string[];
}

export interface IgnoredPlace {
  readonly line: number;
  /** Set when the entry names a commit: it then clears only that commit's finding (`scan --history`). */
  readonly commit?: string;
  readonly ruleId: string;
  /** `.gitleaksignore:12`. */
  readonly source: string;
}

export type AllowPattern = AllowLiteral | AllowRegex;

interface AllowLiteral {
  /** Found anywhere in the secret (an empty one allows nothing). */
  readonly literal: string;
  /** `.secretlintrc.json allows "x"`. */
  readonly source: string;
}

interface AllowRegex {
  /** Without the `g` and `y` flags, so testing it keeps no state. */
  readonly regex: RegExp;
  /** `.secretlintrc.json allows "/^AKIA.*EXAMPLE$/"`. */
  readonly source: string;
}

/** What cleared a finding: named in `--report-allowed` and the gate's suppression list. */
export interface ImportedMatch {
  source: string;
  reason: string;
}

export const NO_IMPORTED_SUPPRESSIONS: ImportedSuppressions = { places: new Map(), allows: [], files: [] };

/** The entry or pattern that clears this finding, if any. */
export function importedSuppressionFor(
  imported: ImportedSuppressions,
  finding: { path: string; line: number; commit?: string | undefined; secret: string },
): ImportedMatch | undefined {
  for (const place of imported.places.get(finding.path) ?? []) {
    if (place.line !== finding.line) continue;
    if (place.commit !== undefined && place.commit !== finding.commit) continue;
    return { source: place.source, reason: `gitleaks rule ${place.ruleId}` };
  }
  const allow = imported.allows.find((pattern) => allowsSecret(pattern, finding.secret));
  return allow ? { source: allow.source, reason: 'secretlint allows' } : undefined;
}

function allowsSecret(pattern: AllowPattern, secret: string): boolean {
  return 'regex' in pattern ? pattern.regex.test(secret) : pattern.literal !== '' && secret.includes(pattern.literal);
}
