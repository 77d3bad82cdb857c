import type { FixtureMode } from '../../../secrets/fixtures.js';
import type { RejectedCandidate, SkippedTarget } from '../../../secrets/scan-targets.js';
import type { AppliedSuppression } from '../../../secrets/suppressions.js';
import type { SecretFinding } from '../../../secrets/to-finding.js';

/** What `tollgate scan` found, as every renderer sees it. Holds masked values and fingerprints only. */
export interface SecretScanReport {
  tool: 'tollgate';
  version: string;
  /** What was scanned: `paths`, `staged`, `all` or `history <range>`. */
  scope: string;
  findings: SecretFinding[];
  /** How many of `findings` block (exit 1): all but the test fixtures, unless `secrets.fixtures` is `block`. */
  blocking: number;
  /** Findings classified as test fixtures: the mode, how many there were, how many of them are in `findings`. */
  fixtures: { mode: FixtureMode; count: number; shown: number };
  skipped: SkippedTarget[];
  baselined: number;
  scannedFiles: number;
  scannedBytes: number;
  durationMs: number;
  /** Import problems and other things the user should know that did not stop the scan. */
  notes: string[];
  /** With `--report-allowed`: the findings an inline allow or the baseline cleared (masked), and by what. */
  allowed?: AppliedSuppression[];
  /**
   * With `--report-allowed`: values a provider rule recognised and rejected (a wrong checksum, a placeholder, a
   * documentation host), masked, and why; no findings.
   */
  rejected?: RejectedCandidate[];
}

export function nextStepFor(report: SecretScanReport): string {
  if (report.findings.length === 0) return 'No secrets found.';
  if (report.blocking === 0)
    return 'Every finding was classified as a test fixture (a test or docs path and a made-up value): none blocks. Check that none is a real credential; `--fixtures block` makes them block.';
  // No suppression to add: whoever reads this (often an agent) must not clear its own finding; a person decides.
  return 'Remove each secret, rotate it (it may already be copied elsewhere), and load it from the environment or a secret manager. Whether a finding is not a secret is for a person to decide (docs/validators/secrets.md).';
}
