import { describe, expect, test } from 'vitest';
import type { SecretFinding } from '../../../secrets/to-finding.js';
import { renderScanSarif } from './render-sarif.js';

/** GitHub rejects a SARIF run of more than 25,000 results; `scan --format sarif` caps like `run`, most severe kept. */
describe('scan SARIF', () => {
  test('26,000 findings become 25,000 results, the critical ones kept, the rest counted', () => {
    const findings: SecretFinding[] = Array.from({ length: 26_000 }, (_, index) => ({
      ruleId: index < 100 ? 'github-pat' : 'generic-secret',
      title: 'a secret',
      severity: index < 100 ? 'critical' : 'medium',
      path: `keys/${index}.env`,
      line: 1,
      column: 1,
      masked: 'abcd…',
      fingerprint: `fp-${index}`,
      isNew: true,
    }));
    findings.reverse();
    const sarif = JSON.parse(
      renderScanSarif({
        tool: 'tollgate',
        version: '0.1.0',
        scope: 'history main..HEAD',
        findings,
        blocking: findings.length,
        fixtures: { mode: 'report', count: 0, shown: 0 },
        skipped: [],
        baselined: 0,
        scannedFiles: 26_000,
        scannedBytes: 1,
        durationMs: 1,
        notes: [],
      }),
    );
    const run = sarif.runs[0];
    expect(run.results).toHaveLength(25_000);
    expect(run.results.filter((r: { ruleId: string }) => r.ruleId === 'secrets/github-pat')).toHaveLength(100);
    expect(run.properties.droppedResults).toBe(1_000);
  });
});
