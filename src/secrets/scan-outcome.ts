import { appendAll } from '../core/append-all.js';
import { byPathLineColumn, compareText } from '../core/text-order.js';
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

/** Findings in a stable order, whichever thread found them (`compareText`: the same in every locale). */
export function sortOutcome(outcome: ScanOutcome): void {
  outcome.findings.sort(
    (a, b) => byPathLineColumn(a, b) || compareText(a.ruleId, b.ruleId) || compareText(a.fingerprint, b.fingerprint),
  );
  outcome.skipped.sort((a, b) => compareText(a.path, b.path));
  outcome.suppressed.sort((a, b) => compareText(a.path, b.path) || a.line - b.line || compareText(a.ruleId, b.ruleId));
  outcome.rejected?.sort(byPathLineColumn);
  outcome.binaryRuns.sort(compareText);
}
