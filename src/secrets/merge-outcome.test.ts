import { describe, expect, test } from 'vitest';
import { emptyScanOutcome, mergeScanOutcome } from './scan-targets.js';
import type { SecretFinding } from './to-finding.js';

/** Worker shares and history batches add up into one outcome: 200k findings once crashed the spread push there. */
describe('merging scan outcomes', () => {
  test('200,000 findings, skipped files and suppressions merge without overflowing the stack', () => {
    const finding = { path: 'a.txt', line: 1 } as unknown as SecretFinding;
    const from = emptyScanOutcome();
    from.findings = Array.from({ length: 200_000 }, () => finding);
    from.skipped = Array.from({ length: 200_000 }, (_, i) => ({ path: `f${i}`, reason: 'binary', detail: 'x' }));
    from.suppressed = [];
    const into = emptyScanOutcome();
    mergeScanOutcome(into, from);
    mergeScanOutcome(into, from);
    expect(into.findings).toHaveLength(400_000);
    expect(into.skipped).toHaveLength(400_000);
  });
});
