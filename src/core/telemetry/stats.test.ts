import { describe, expect, test } from 'vitest';
import type { ToolReport } from '../run/run-report.js';
import { toolTelemetry } from './record.js';
import { telemetryRecordSchema } from './record-schemas.js';
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

  test('records carry the reviewing CLIs (version number, model) and the CodeQL that ran (version, overlay)', () => {
    const review: ToolReport = {
      ...report('code_review', 'passed', 4000),
      details: {
        reviewers: [
          { cli: 'claude', cliVersion: '2.0.14 (Claude Code)', model: 'sonnet' },
          { cli: 'gemini', cliVersion: null, model: null },
          // A local model's path is the user's: masked. A version line keeps its number only.
          { cli: 'opencode', cliVersion: 'opencode 1.18.33 at /home/ann/.local/bin', model: '/home/ann/models/q.gguf' },
        ],
      },
    };
    const analysis = (version: string, overlay: boolean): ToolReport => ({
      ...report('static_analysis', 'passed', 9000),
      details: {
        producers: [
          { producer: 'semgrep', state: 'ran' },
          { producer: 'codeql', state: 'ran', details: { languages: {}, cliVersion: version, overlay } },
        ],
      },
    });
    const records = [
      ...toolTelemetry({ runId: 'r1', source: 'run', tools: [review, analysis('2.24.0', true)] }, 'T'),
      ...toolTelemetry({ runId: 'r2', source: 'run', tools: [review, analysis('2.24.0', false)] }, 'T'),
      ...toolTelemetry({ runId: 'r3', source: 'run', tools: [report('checks', 'passed', 1)] }, 'T'),
    ];
    expect(records[0]).toMatchObject({
      tool: 'code_review',
      reviewers: [
        { cli: 'claude', cliVersion: '2.0.14', model: 'sonnet' },
        { cli: 'gemini', cliVersion: null, model: null },
        { cli: 'opencode', cliVersion: '1.18.33', model: '<path>' },
      ],
    });
    expect(records[0]).not.toHaveProperty('codeql');
    expect(records[1]).toMatchObject({ tool: 'static_analysis', codeql: { version: '2.24.0', overlay: true } });
    expect(records[1]).not.toHaveProperty('reviewers');
    expect(records[4]).not.toHaveProperty('codeql');
    expect(JSON.stringify(records)).not.toContain('/home/ann');
    // What `tollgate stats` reads back passes its schema with the new fields.
    for (const record of records)
      expect(telemetryRecordSchema().parse(JSON.parse(JSON.stringify(record)))).toEqual(record);

    const stats = summarizeTelemetry(records, 3);
    expect(stats.tools.find((tool) => tool.tool === 'static_analysis')?.codeql).toEqual([
      { version: '2.24.0', calls: 2, overlay: 1 },
    ]);
    const text = renderStats(stats);
    expect(text).toContain(
      '  reviewers: claude 2.0.14 with sonnet 2 time(s), gemini (version unknown) with its default model 2 time(s), opencode 1.18.33 with <path> 2 time(s)',
    );
    expect(text).toContain('  codeql 2.24.0: 2 call(s), 1 on an overlay database');
  });

  test('records of an older tollgate, without the new fields, still read', () => {
    const [old] = toolTelemetry({ runId: 'r1', source: 'run', tools: [report('checks', 'passed', 1)] }, 'T');
    expect(telemetryRecordSchema().safeParse(old).success).toBe(true);
    expect(renderStats(summarizeTelemetry([old!], 1))).not.toContain('reviewers');
  });

  test('invalid input is its own category, not a skip, in new records and in those of older versions', () => {
    const records = [
      ...toolTelemetry({ runId: 'r1', source: 'mcp', tools: [report('lint', 'invalid_input', 0)] }, 'T'),
      ...toolTelemetry({ runId: 'r2', source: 'mcp', tools: [report('lint', 'skipped_no_changes', 0)] }, 'T'),
      // An older version's record: invalid input as a skip reason.
      {
        ...toolTelemetry({ runId: 'r3', source: 'mcp', tools: [report('lint', 'passed', 0)] }, 'T')[0]!,
        status: 'invalid_input',
        success: false,
        skipReason: 'invalid_input' as const,
      },
    ];
    expect(records[0]).toMatchObject({ skipReason: null, status: 'invalid_input' });
    const lint = summarizeTelemetry(records, 3).tools[0]!;
    expect(lint).toMatchObject({ calls: 3, ran: 0, invalidInput: 2, skips: { no_changes: 1 } });
    const text = renderStats(summarizeTelemetry(records, 3));
    expect(text).toContain('  invalid input 2\n  skipped: no_changes 1');
    expect(text).toContain('could not finish 0');
  });

  test('runs a signal interrupted are counted, by signal, with the calls they stopped', () => {
    const interrupted = (runId: string, signal: string, tools: string[]) => ({
      type: 'validation.interrupted' as const,
      at: 'T',
      runId,
      source: 'run' as const,
      signal,
      durationMs: 5,
      tools,
    });
    const records = [
      ...toolTelemetry({ runId: 'r1', source: 'run', tools: [report('checks', 'passed', 10)] }, 'T'),
      interrupted('r2', 'SIGINT', ['checks', 'secrets']),
      interrupted('r3', 'SIGHUP', ['checks']),
    ];
    const stats = summarizeTelemetry(records, 3);
    expect(stats.interrupted).toEqual({ SIGINT: 1, SIGHUP: 1 });
    expect(stats.tools.find((tool) => tool.tool === 'checks')).toMatchObject({ calls: 3, ran: 1, interrupted: 2 });
    const text = renderStats(stats);
    expect(text).toContain('checks: 3 call(s), ran 1: passed 1');
    expect(text).toContain('  interrupted 2');
    expect(text).toContain('Interrupted runs: 2 (SIGINT 1, SIGHUP 1)');
  });

  test('no runs yet', () => {
    expect(renderStats(summarizeTelemetry([], 0))).toBe(
      'No telemetry yet: run `tollgate run` or call a validation tool through `tollgate mcp`.\n',
    );
  });
});
