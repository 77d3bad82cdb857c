import { expect, test } from 'vitest';
import { renderSummary, type ValidateAlertSummary } from './summary.js';

const contested: ValidateAlertSummary = {
  repository: 'octo-org/api',
  alertId: '42',
  source: 'github',
  secretType: 'aws_access_key',
  verdict: 'INCONCLUSIVE',
  confidence: null,
  confidenceLabel: null,
  riskLevel: null,
  keyFinding: null,
  winner: 1,
  decidedBy: 'judge',
  contested:
    'report 1 (FALSE_POSITIVE) won although its challenge was REFUTED, while report 2 (TRUE_POSITIVE) was CONFIRMED',
  disagreement: [
    { report: 1, agent: 'claude', verdict: 'FALSE_POSITIVE', confidence: 8.5, challenge: 'REFUTED' },
    { report: 2, agent: 'codex', verdict: 'TRUE_POSITIVE', confidence: 7, challenge: 'CONFIRMED' },
  ],
  notes: [],
  outputDir: '/tmp/out',
  finalReport: null,
  htmlReport: '/tmp/out/report.html',
  slots: [],
};

test('a contested INCONCLUSIVE shows who said what, never the refuted pick as the verdict', () => {
  const text = renderSummary(contested, { json: false, showUsage: false });
  const lines = text.split('\n');
  expect(lines[0]).toBe('octo-org/api alert 42 (aws_access_key): INCONCLUSIVE');
  expect(text).not.toContain('Key finding');
  expect(text).not.toContain('Winner:');
  expect(text).toContain('Picked by judge: report 1, refuted, so not the verdict');
  expect(text).toContain(
    'The reports disagree:\n  report 1 (claude): FALSE_POSITIVE, confidence 8.5/10, challenge REFUTED\n  report 2 (codex): TRUE_POSITIVE, confidence 7/10, challenge CONFIRMED\n',
  );
});
