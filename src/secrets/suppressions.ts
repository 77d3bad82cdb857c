import type { Severity } from '../core/finding.js';

/**
 * Suppressions are waivers a developer can write alone: an inline `tollgate:allow` and a baseline entry. In the gate,
 * one that a change adds for its own high or critical secret, or one kept in a file nobody reviews (the git-ignored
 * `.tollgate/`), does not clear it: that needs a person (a waiver), or a committed file reviewers see in the diff.
 */
export interface GateSuppressionPolicy {
  /** Whether this line of this file was added by the change under validation. */
  addedLine(path: string, line: number): boolean;
  /** Whether the baseline file is part of the repository (tracked, or in the change set's diff), not ignored. */
  baselineCommitted: boolean;
  /** The same for `.gitleaksignore` and the secretlint config whose entries are honoured. */
  importsCommitted?: boolean;
}

/** Why a suppression did not clear a finding in the gate. */
export type BlockedSuppression = 'inline-added' | 'baseline-uncommitted' | 'import-uncommitted';

/** A suppression that cleared a finding; every one is listed in the report. */
export interface AppliedSuppression {
  /** `imported`: a `.gitleaksignore` entry or a secretlint `allows` pattern. */
  kind: 'inline' | 'baseline' | 'imported';
  path: string;
  line: number;
  ruleId: string;
  severity: Severity;
  masked: string;
  fingerprint: string;
  /** The marker (`tollgate:allow`), the baseline file, or the imported entry (`.gitleaksignore:3`). */
  source: string;
  /** What the inline marker says about why (`tollgate:allow test fixture`). */
  reason?: string;
}

const PERSON_REQUIRED: ReadonlySet<Severity> = new Set(['critical', 'high']);

/**
 * For scans that report only the lines a change adds (`tollgate scan --staged`, the pre-commit hook, `scan --history`
 * commit by commit): every reported line, and so any allow marker on it, is the change's own. A marker there does not
 * clear a high or critical secret; the baseline and imported files keep the effect they have outside the gate.
 */
export const ADDED_LINES_POLICY: GateSuppressionPolicy = {
  addedLine: () => true,
  baselineCommitted: true,
  importsCommitted: true,
};

/** What a suppression does to a finding: clear it, or leave it blocking and say why. */
export function judgeSuppression(
  kind: AppliedSuppression['kind'],
  finding: { severity: Severity; path: string; line: number },
  policy: GateSuppressionPolicy | undefined,
  /** The inline marker's line, when it is not the finding's (a comment line above). */
  markerLine?: number,
): BlockedSuppression | 'applies' {
  if (!policy || !PERSON_REQUIRED.has(finding.severity)) return 'applies';
  if (kind === 'inline') {
    // A marker the change wrote, or a secret the change put under an old marker: neither was reviewed together.
    const added =
      policy.addedLine(finding.path, finding.line) ||
      (markerLine !== undefined && policy.addedLine(finding.path, markerLine));
    return added ? 'inline-added' : 'applies';
  }
  if (kind === 'imported') return policy.importsCommitted ? 'applies' : 'import-uncommitted';
  return policy.baselineCommitted ? 'applies' : 'baseline-uncommitted';
}

/** What a finding says when its suppression did not apply. */
export function blockedSuppressionNote(reason: BlockedSuppression): string {
  if (reason === 'inline-added')
    return "Suppression added by this change: needs a person's waiver. The `tollgate:allow` on this line is new in this change, and a change may not clear its own high or critical secret; remove the secret, or have a person accept the finding.";
  if (reason === 'import-uncommitted')
    return "Imported suppression outside the reviewed repository: needs a person's waiver. The `.gitleaksignore` entry or secretlint `allows` pattern that covers it is in a file git does not track; remove the secret, commit that file, or have a person waive the finding.";
  return "Baseline outside the reviewed repository: needs a person's waiver. The baseline entry that lists it is in a git-ignored file (such as `.tollgate/`), which nobody reviews; remove the secret, commit the baseline (`secrets.baseline: path/in/repo`), or have a person waive the finding.";
}

/** One line per suppression for summaries and Markdown. */
export function formatSuppression(suppression: AppliedSuppression): string {
  const how =
    suppression.kind === 'inline'
      ? `\`${suppression.source}\``
      : suppression.kind === 'baseline'
        ? `baseline ${suppression.source}`
        : suppression.source;
  const why = suppression.reason ? ` (${JSON.stringify(suppression.reason)})` : '';
  return `${suppression.path}:${suppression.line} secrets/${suppression.ruleId} (${suppression.severity}, ${suppression.masked}) cleared by ${how}${why}`;
}
