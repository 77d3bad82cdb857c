import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { buildReport } from '../../../test/support/build-report.js';
import { confidenceLabel } from './confidence.js';
import { evaluateReport } from './evals.js';
import { parseReport } from './report.js';

const expected = { repository: 'octo-org/api', alertId: '7' };
const files = new Map([
  ['scripts/check-identity.sh', 120],
  ['logs/check-identity.log', 4],
]);
const failedIds = (text: string, context = {}) =>
  evaluateReport(text, { expected, workspaceFiles: files, ...context })
    .checks.filter((check) => !check.passed)
    .map((check) => check.id);

describe('evaluateReport', () => {
  test('a complete, coherent, evidenced report passes every check', () => {
    const result = evaluateReport(buildReport(), { expected, workspaceFiles: files, secret: 'ghp_notinreport' });
    expect(result.checks.filter((check) => !check.passed)).toEqual([]);
    expect(result).toMatchObject({ passed: true, score: 1, skipped: [] });
  });

  test.each([
    ['a missing section', buildReport({ omit: ['Risk Assessment'] }), ['structure.required-sections']],
    ['another alert id', buildReport({ alertId: '8' }), ['metadata.alert-id']],
    ['another repository', buildReport({ repository: 'octo-org/web' }), ['metadata.repository']],
    ['an unknown verdict', buildReport({ verdict: 'SUSPICIOUS' }), ['verdict.valid']],
    ['a label against the one table', buildReport({ score: '7.1/10 (High)' }), ['verdict.confidence-label']],
    ['a score out of range', buildReport({ score: '12/10 (High)' }), ['verdict.confidence-score']],
    ['INCONCLUSIVE with High confidence', buildReport({ verdict: 'INCONCLUSIVE' }), ['verdict.coherence']],
    ['TRUE_POSITIVE with risk None', buildReport({ risk: 'None' }), ['verdict.coherence']],
    ['FALSE_POSITIVE with risk High', buildReport({ verdict: 'FALSE_POSITIVE' }), ['verdict.coherence']],
    ['a TRUE_POSITIVE with Low confidence', buildReport({ score: '3.0/10 (Low)' }), ['verdict.coherence']],
    [
      'evidence that is not in the workspace',
      buildReport({ evidence: ['scripts/live.sh', 'logs/live.log'] }),
      ['evidence.referenced-files-exist', 'evidence.scripts-back-claims'],
    ],
  ])('fails on %s', (_name, text, ids) => {
    expect(failedIds(text)).toEqual(ids);
  });

  test('a secret in clear fails the safety check', () => {
    expect(failedIds(buildReport({ extra: 'value ghp_leaked123' }), { secret: 'ghp_leaked123' })).toEqual([
      'safety.secret-not-in-clear',
    ]);
  });

  test('checks that cannot run are listed as skipped, with the reason', () => {
    const result = evaluateReport(buildReport());
    expect(result.skipped.map((item) => item.id)).toEqual([
      'metadata.repository',
      'metadata.alert-id',
      'evidence.referenced-files-exist',
      'evidence.scripts-back-claims',
      'safety.secret-not-in-clear',
    ]);
  });

  test('never throws on arbitrary text, and the score stays within 0–1', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        const result = evaluateReport(text, { expected, workspaceFiles: files });
        expect(result.score).toBeGreaterThanOrEqual(0);
        expect(result.score).toBeLessThanOrEqual(1);
      }),
    );
  });
});

test('parseReport reads the summary table, key finding and methodology', () => {
  expect(parseReport(buildReport({ score: '**6.5/10 (Medium)**' }))).toMatchObject({
    verdict: 'TRUE_POSITIVE',
    confidenceScore: 6.5,
    confidenceLabel: 'Medium',
    riskLevel: 'High',
    alertId: '7',
    repository: 'octo-org/api',
    keyFinding: 'The token authenticates against the GitHub API as a live user.',
    methodology: [
      'alert-context',
      'testing-environment',
      'history-review',
      'code-context',
      'live-verification',
      'confidence-scoring',
    ],
  });
});

test.each([
  [10, 'High'],
  [8, 'High'],
  [7.95, 'High'],
  [7.9, 'Medium'],
  [5, 'Medium'],
  [4.9, 'Low'],
  [0, 'Low'],
])('confidence %d is %s', (score, label) => {
  expect(confidenceLabel(score)).toBe(label);
});
