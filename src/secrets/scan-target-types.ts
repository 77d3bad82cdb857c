import type { LineRange, SkipReason } from '../core/change-set/types.js';
import type { ImportedSuppressions } from './imported-match.js';
import type { SecretScanner } from './scanner.js';
import type { AppliedSuppression, GateSuppressionPolicy } from './suppressions.js';
import type { SecretFinding } from './to-finding.js';

/** What the scanning loop (`scan-targets.ts`) takes and gives: targets, its options, and the outcome it fills. */

/** One file (or one commit's added lines of it) to scan, with how to read it and which lines to report. */
export interface ScanTarget {
  /** Repo-relative POSIX path (or as given on the command line). */
  readonly path: string;
  /** Content, or null when it cannot be had (then `unreadable` says why). */
  read(): Promise<Buffer | string | null>;
  /**
   * What `read` resolves to, when it is at hand already (a history's added lines and messages): `scanTargets` scans it
   * without a read's promises, going through the event loop every few milliseconds instead.
   */
  readonly content?: Buffer | string;
  /** Lines to report; all when absent. */
  readonly onlyLines?: readonly LineRange[];
  /** Lines that are new in the change (for `isNew`); all when absent. */
  readonly newLines?: readonly LineRange[];
  /** Maps a line of the scanned text to the line in the real file (history scans join added lines). */
  readonly lineMap?: readonly number[];
  /** Attached to findings (history scans). */
  readonly commit?: string;
  /**
   * The blob id the bytes must have (a changed file of the gate's snapshot that is streamed from disk): bytes that do
   * not match were changed since the snapshot, and the target is read whole through `read` instead.
   */
  readonly expectedBlob?: { readonly id: string; readonly objectFormat: string };
  /**
   * Scanned from its decoded text, never read from its bytes (`SecretScanner.scanView`): the same findings, by the
   * scanner's one other path. A history's added lines are all text; its commit messages, read as bytes, would warm the
   * byte path too in a run too short to repay it.
   */
  readonly scanAsText?: boolean;
  /** Known before reading: not to be scanned, and why (a symlink out of the repository). */
  readonly skip?: { reason: SkipReason; detail: string };
}

export interface SkippedTarget {
  path: string;
  reason: SkipReason | 'allowlisted';
  detail: string;
}

/** A value a provider rule recognised and rejected, listed with `--report-allowed` (masked only). */
export interface RejectedCandidate {
  path: string;
  line: number;
  column: number;
  ruleId: string;
  masked: string;
  /** Why it is no finding: a wrong checksum, a placeholder, a documentation host. */
  reason: string;
}

export interface ScanOutcome {
  findings: SecretFinding[];
  /** Findings left out because their fingerprint is in the baseline. */
  baselined: number;
  /** Every inline allow and baseline entry that cleared a finding. */
  suppressed: AppliedSuppression[];
  skipped: SkippedTarget[];
  /**
   * Files that are no text encoding, scanned for their printable runs only (see `printable-runs.ts`); a history's
   * blob as `<commit>:<path>` (commit id to 12 characters).
   */
  binaryRuns: string[];
  scannedFiles: number;
  scannedBytes: number;
  /** Only when `ScanTargetsOptions.reportRejected` is set: the candidates dropped silently otherwise. */
  rejected?: RejectedCandidate[];
}

export interface ScanTargetsOptions {
  scanner: SecretScanner;
  /** Glob patterns (config `secrets.paths`) of files never scanned. */
  allowPaths?: readonly string[];
  baseline?: ReadonlySet<string>;
  /** The baseline's path as configured, named in listed suppressions. */
  baselineLabel?: string;
  /** `.gitleaksignore` entries and secretlint `allows`. */
  imported?: ImportedSuppressions;
  /** Set in the gate: which suppressions may clear a high or critical finding. Absent: every one applies. */
  gate?: GateSuppressionPolicy;
  /** Keep the candidates a provider rule rejected (`--report-allowed`), masked, in `ScanOutcome.rejected`. */
  reportRejected?: boolean;
  signal?: AbortSignal;
  onProgress?: (scanned: number, total: number) => void;
}
