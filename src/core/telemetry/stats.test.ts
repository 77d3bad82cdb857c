import { describe, expect, test } from 'vitest';
import type { ToolReport } from '../run/run-report.js';
import { toolTelemetry } from './record.js';
import { renderStats, summarizeTelemetry } from './stats.js';

const report = (name: string, status: ToolReport['status'], durationMs: number, findings = 0): ToolReport => ({
  name,
  title: name,
  status,
  summary: '',
  durationMs,
  findings: Array.from({ length: findings }, (_, index) => ({
    id: `${name}-${index}`,
    validator: name,
    severity: 'low' as const,
    title: 't',
    sources: [name],
  })),
});

describe('telemetry', () => {
  test('declared trivial: savings when nothing was found, disagreement when something was', () => {
    const records = toolTelemetry(
      {
        runId: 'r1',
        source: 'mcp',
        tools: [
          report('lint', 'passed', 1200),
          report('code_review', 'failed', 5000, 2),
          report('checks', 'skipped_no_changes', 3),
        ],
        declarations: new Map([
          ['lint', { isTrivial: true }],
          ['code_review', { isTrivial: true }],
        ]),
        call: { name: 'parallel_validation', status: 'failed', durationMs: 5100, skipReason: null },
      },
      '2026-11-26T00:00:00.000Z',
    );
    expect(
      records.map((record) =>
        record.type === 'validation.tool'
          ? [record.tool, record.potentialSavingsMs, record.disagreement, record.skipReason]
          : record.type,
      ),
    ).toEqual([
      ['lint', 1200, false, null],
      ['code_review', 0, true, null],
      ['checks', 0, false, 'no_changes'],
      'validation.call',
    ]);
    const stats = summarizeTelemetry(records, 1);
    expect(stats.calls).toEqual({ ran: 1 });
    expect(stats.tools.find((tool) => tool.tool === 'code_review')).toMatchObject({
      ran: 1,
      alerts: 2,
      disagreements: 1,
      successes: 1,
      passed: 0,
      failed: 1,
    });
    expect(renderStats(stats)).toContain(
      'code_review: 1 call(s), ran 1: passed 0, failed 1, could not finish 0 (timed out 0)',
    );
    expect(renderStats(stats)).toContain(
      'lint: 1 call(s), ran 1: passed 1, failed 0, could not finish 0 (timed out 0)\n  duration median 1.2s, p95 1.2s; 0 finding(s)\n  declared trivial 1 time(s), 0 of them with findings; potential savings 1.2s',
    );
  });

  test('a validator reused from an earlier pass never makes a count negative, and zero trivial lines are left out', () => {
    const run = (runId: string, status: ToolReport['status']) =>
      toolTelemetry(
        {
          runId,
          source: 'run',
          tools: [report('checks', status, 10)],
          declarations: new Map(),
          call: { name: 'run', status: 'passed', durationMs: 10, skipReason: null },
        },
        '2026-11-26T00:00:00.000Z',
      );
    const records = [
      ...run('r1', 'passed'),
      ...run('r2', 'skipped_no_changes'),
      ...run('r3', 'skipped_no_changes'),
      ...run('r4', 'skipped_no_changes'),
    ];
    const stats = summarizeTelemetry(records, 4);
    const checks = stats.tools.find((tool) => tool.tool === 'checks');
    expect(checks).toMatchObject({ calls: 4, ran: 1, successes: 1, passed: 1 });
    const text = renderStats(stats);
    expect(text).toContain('checks: 4 call(s), ran 1: passed 1, failed 0, could not finish 0 (timed out 0)');
    expect(text).not.toMatch(/-\d/);
    expect(text).not.toContain('declared trivial');
    expect(text).toContain('skipped: no_changes 3');
  });

  test('no runs yet', () => {
    expect(renderStats(summarizeTelemetry([], 0))).toBe(
      'No telemetry yet: run `tollgate run` or call a validation tool through `tollgate mcp`.\n',
    );
  });
});
