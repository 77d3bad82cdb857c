import fc from 'fast-check';
import { describe, expect, test, vi } from 'vitest';
import { propertyRuns } from '../../test/support/property-runs.js';
import { sharedSecretScanner } from '../secrets/redact.js';
import { emptyScanOutcome, sortOutcome } from '../secrets/scan-outcome.js';
import { scanBatches, scanTargets } from '../secrets/scan-targets.js';
import { byPathLineColumn, compareText } from './text-order.js';

describe('compareText', () => {
  test('orders by UTF-16 code units: upper case before lower, punctuation by its code', () => {
    const paths = ['a/x.env', 'B/x.env', 'a.b.env', 'a-b.env', 'A/x.env', 'b/x.env', 'é.env', 'e.env'];
    expect([...paths].sort(compareText)).toEqual([
      'A/x.env',
      'B/x.env',
      'a-b.env',
      'a.b.env',
      'a/x.env',
      'b/x.env',
      'e.env',
      'é.env',
    ]);
  });

  test('is the order of `<`, whatever the locale would say', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        const order = compareText(a, b);
        expect(Math.sign(order)).toBe(a < b ? -1 : a > b ? 1 : 0);
        expect(compareText(b, a) + order).toBe(0);
      }),
      { numRuns: propertyRuns(500, 20_000) },
    );
  });

  test('byPathLineColumn: path first, then line, then column', () => {
    const at = (path: string, line: number, column: number) => ({ path, line, column });
    const items = [at('a', 2, 1), at('B', 9, 9), at('a', 1, 5), at('a', 1, 2)];
    expect(items.sort(byPathLineColumn)).toEqual([at('B', 9, 9), at('a', 1, 2), at('a', 1, 5), at('a', 2, 1)]);
  });
});

describe("a scan's output order", () => {
  const secret = 'DB_PASSWORD="Tq8#vNw2!pLr5@zXe"\n';
  const paths = ['b.env', 'B.env', 'a-b.env', 'a.b.env', 'A/x.env', 'a/x.env'];
  const expected = ['A/x.env', 'B.env', 'a-b.env', 'a.b.env', 'a/x.env', 'b.env'];

  test('findings are sorted by code units and no collator is asked (scanTargets, scanBatches, sortOutcome)', async () => {
    const collate = vi.spyOn(String.prototype, 'localeCompare');
    try {
      const scanner = sharedSecretScanner();
      const targets = paths.map((path) => ({ path, content: secret, read: () => Promise.resolve(secret) }));
      const outcome = await scanTargets(targets, { scanner });
      expect(outcome.findings.map((finding) => finding.path)).toEqual(expected);
      async function* batches() {
        for (const target of targets) yield [target];
      }
      const batched = await scanBatches(batches(), { scanner });
      expect(batched.findings.map((finding) => finding.path)).toEqual(expected);
      const merged = emptyScanOutcome();
      merged.findings = [...outcome.findings].reverse();
      merged.skipped = paths.map((path) => ({ path, reason: 'unreadable', detail: 'x' }));
      sortOutcome(merged);
      expect(merged.findings.map((finding) => finding.path)).toEqual(expected);
      expect(merged.skipped.map((skip) => skip.path)).toEqual(expected);
      expect(collate).not.toHaveBeenCalled();
    } finally {
      collate.mockRestore();
    }
  });
});
