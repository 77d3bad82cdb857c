import { appendAll } from '../core/append-all.js';
import type { ScanOutcome } from './scan-target-types.js';

/** What a scan adds up to: started empty, merged from workers and history batches, sorted once at the end. */

/** An outcome with nothing in it yet: what a scan starts from, and what merged worker outcomes add up into. */
export function emptyScanOutcome(): ScanOutcome {
  return { findings: [], baselined: 0, suppressed: [], skipped: [], binaryRuns: [], scannedFiles: 0, scannedBytes: 0 };
}

/** Adds one outcome into another (worker shares, history batches). */
export function mergeScanOutcome(into: ScanOutcome, from: ScanOutcome): void {
  appendAll(into.findings, from.findings);
  appendAll(into.skipped, from.skipped);
  appendAll(into.binaryRuns, from.binaryRuns ?? []);
  into.baselined += from.baselined;
  appendAll(into.suppressed, from.suppressed);
  if (from.rejected && from.rejected.length > 0) {
    into.rejected ??= [];
    appendAll(into.rejected, from.rejected);
  }
  into.scannedFiles += from.scannedFiles;
  into.scannedBytes += from.scannedBytes;
}

/** Findings in a stable order, whichever thread found them. */
export function sortOutcome(outcome: ScanOutcome): void {
  outcome.findings.sort(
    (a, b) =>
      a.path.localeCompare(b.path) ||
      compare(a.path, b.path) ||
      a.line - b.line ||
      a.column - b.column ||
      compare(a.ruleId, b.ruleId) ||
      compare(a.fingerprint, b.fingerprint),
  );
  outcome.skipped.sort((a, b) => a.path.localeCompare(b.path) || compare(a.path, b.path));
  outcome.suppressed.sort(
    (a, b) => a.path.localeCompare(b.path) || compare(a.path, b.path) || a.line - b.line || compare(a.ruleId, b.ruleId),
  );
  outcome.rejected?.sort(
    (a, b) => a.path.localeCompare(b.path) || compare(a.path, b.path) || a.line - b.line || a.column - b.column,
  );
  outcome.binaryRuns.sort(compare);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
